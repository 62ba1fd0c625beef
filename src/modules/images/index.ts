// The images module's public face: what the rest of the service may use of it. Anything
// not exported here is the module's own (npm run lint:imports enforces it).
export { createCodeImageCheck } from './code-image-check.ts';
export { createLogoStore } from './logo-store.ts';
export { createLogos } from './logos.ts';
export type { Logos } from './logos.ts';
export { createRenderPool } from './render-pool.ts';
export { createImagesService, imageQuerySchema } from './service.ts';
export type { ImageParams, ImagesService } from './service.ts';
export { createUploads } from './uploads.ts';
export type { Uploads, UploadedImage } from './uploads.ts';
export { createUploadStore } from './upload-store.ts';
