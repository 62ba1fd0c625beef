// The bulk operations in the OpenAPI document. (Being written: see src/modules/codes/openapi.ts.)
import type { OpenApiModule } from '../../http/openapi/common.ts';

const TAG = 'Bulk';

export const bulkOpenApi: OpenApiModule = {
  tag: { name: TAG, description: '' },
  paths: {},
};
