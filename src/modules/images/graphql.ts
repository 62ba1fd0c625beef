// The image fields of GraphQL: a code's SVG, and the preview of an unsaved code. They live with
// images, which sits above codes: the codes module's types know nothing of drawing. And the
// workspace's uploaded images, to list, read and delete (uploading is REST only: POST /v1/images
// takes the file as multipart/form-data, which GraphQL over JSON does not carry).
import type { DefaultConnectionArguments } from '@pothos/plugin-relay';
import { builder } from '../../graphql/builder.ts';
import { points } from '../../graphql/cost.ts';
import { compact } from '../../graphql/inputs.ts';
import { connectionOf, forwardOnly, orNull } from '../../graphql/pages.ts';
import { scoped } from '../../graphql/scoped.ts';
import { parseInput } from '../../shared/validation.ts';
import { CodeRef, CreateCodeInputRef, parseCreate } from '../codes/graphql.ts';
import { MIN_PIXELS_PER_MODULE } from './scannable-size.ts';
import { imageQuerySchema, type ImagesService } from './service.ts';
import { presentImage } from './upload-presenter.ts';
import { listImagesSchema, type UploadedImage, type Uploads } from './uploads.ts';

declare module '../../graphql/context.ts' {
  interface GraphQLServices {
    images: ImagesService;
    uploads: Uploads;
  }
}

const ImageRef = builder.objectRef<UploadedImage>('Image').implement({
  description:
    'An image the workspace uploaded (POST /v1/images), stored as a PNG: a code’s logo (CodeDesignInput.logoImageId) ' +
    'or a business card’s photo (page.photo_image_id).',
  fields: (t) => ({
    id: t.exposeID('id'),
    name: t.exposeString('name', { nullable: true, description: 'The file name it was uploaded with.' }),
    sourceType: t.exposeString('sourceType', { description: 'What the upload was, judged from its bytes.' }),
    width: t.exposeInt('width', { description: 'Of the stored PNG, in pixels.' }),
    height: t.exposeInt('height'),
    bytes: t.exposeInt('bytes', { description: 'Size of the stored PNG.' }),
    sha256: t.exposeString('sha256'),
    contentUrl: t.string({
      description: 'Where the PNG is read over REST (needs codes:read).',
      resolve: (image) => presentImage(image).content_url,
    }),
    createdAt: t.field({ type: 'DateTime', resolve: (image) => image.createdAt }),
  }),
});

const DeleteImagePayload = builder
  .objectRef<{ deletedId: string }>('DeleteImagePayload')
  .implement({ fields: (t) => ({ deletedId: t.exposeID('deletedId') }) });

builder.queryFields((t) => ({
  images: t.connection({
    type: ImageRef,
    description: 'The workspace’s uploaded images, newest first. Forward pagination only.',
    resolve: scoped('codes:read', async (_root, args: DefaultConnectionArguments, ctx) => {
      forwardOnly(args);
      const page = await ctx.services.uploads.list(
        ctx.principal,
        parseInput(listImagesSchema, compact({ limit: args.first ?? undefined, cursor: args.after ?? undefined })),
      );
      return connectionOf(page, args.after);
    }),
  }),
  image: t.field({
    type: ImageRef,
    nullable: true,
    args: { id: t.arg.id({ required: true }) },
    resolve: scoped('codes:read', (_root, { id }, ctx) => orNull(ctx.services.uploads.get(ctx.principal, String(id)))),
  }),
}));

builder.mutationFields((t) => ({
  deleteImage: t.field({
    type: DeleteImagePayload,
    description: 'Deletes an uploaded image; a CONFLICT error while a code uses it as its logo or photo.',
    args: { id: t.arg.id({ required: true }) },
    resolve: scoped('codes:write', async (_root, { id }, ctx) => {
      await ctx.services.uploads.remove(ctx.principal, String(id));
      return { deletedId: String(id) };
    }),
  }),
}));

builder.objectField(CodeRef, 'svg', (t) =>
  t.string({
    description:
      'The image as SVG markup (GET /v1/codes/:id/image?format=svg). Drawn from the code already loaded, so a list ' +
      'costs no query per code.',
    // A render per code, as GET /v1/codes/:id/image is one call.
    extensions: points(1),
    args: {
      size: t.arg.int({
        description:
          `Width in pixels, 64 to 4096; default 512. Rounded up to the smallest width at which the code ` +
          `scans (${MIN_PIXELS_PER_MODULE} pixels per module, quiet zone included): the SVG's width attribute is ` +
          `the width drawn.`,
      }),
    },
    resolve: scoped('codes:read', async (code, { size }, ctx) =>
      (
        await ctx.services.images.renderCodeImage(
          code.accountId,
          code,
          parseInput(imageQuerySchema, compact({ format: 'svg', size })),
        )
      ).toString('utf8'),
    ),
  }),
);

builder.queryFields((t) => ({
  previewCode: t.string({
    description:
      'The SVG that createCode would draw for this input, refused as createCode would refuse it; saves no code (a ' +
      'logo is stored, content-addressed, as on create). At most one per operation. With codeId, a url code ' +
      "encodes that code's scan URL. Needs codes:write: a logoUrl is fetched.",
    args: {
      input: t.arg({ type: CreateCodeInputRef, required: true }),
      codeId: t.arg.id({ required: false }),
      size: t.arg.int({
        required: false,
        description:
          `Width in pixels, 64 to 4096; default 512. Rounded up to the smallest width at which the code ` +
          `scans (${MIN_PIXELS_PER_MODULE} pixels per module, quiet zone included), as Code.svg.`,
      }),
    },
    resolve: scoped('codes:write', (_root, { input, codeId, size }, ctx) =>
      ctx.services.codes.preview(ctx.principal, parseCreate(input), {
        codeId: codeId == null ? undefined : String(codeId),
        size: size ?? undefined,
      }),
    ),
  }),
}));
