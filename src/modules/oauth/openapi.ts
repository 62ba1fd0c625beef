// The oauth operations in the OpenAPI document. (Being written: see src/modules/codes/openapi.ts.)
import type { OpenApiModule } from '../../http/openapi/common.ts';

const TAG = 'OAuth clients';

export const oauthOpenApi: OpenApiModule = {
  tag: { name: TAG, description: '' },
  paths: {},
};
