// The webhooks operations in the OpenAPI document. (Being written: see src/modules/codes/openapi.ts.)
import type { OpenApiModule } from '../../http/openapi/common.ts';

const TAG = 'Webhooks';

export const webhooksOpenApi: OpenApiModule = {
  tag: { name: TAG, description: '' },
  paths: {},
};
