// The scans operations in the OpenAPI document. (Being written: see src/modules/codes/openapi.ts.)
import type { OpenApiModule } from '../../http/openapi/common.ts';

const TAG = 'Scans';

export const scansOpenApi: OpenApiModule = {
  tag: { name: TAG, description: '' },
  paths: {},
};
