// The accounts operations in the OpenAPI document. (Being written: see src/modules/codes/openapi.ts.)
import type { OpenApiModule } from '../../http/openapi/common.ts';

const TAG = 'API keys';

export const accountsOpenApi: OpenApiModule = {
  tag: { name: TAG, description: '' },
  paths: {},
};
