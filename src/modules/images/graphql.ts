// The image fields of GraphQL: a code's SVG, and the preview of an unsaved code. They live with
// images, which sits above codes: the codes module's types know nothing of drawing.
import { builder } from '../../graphql/builder.ts';
import { points } from '../../graphql/cost.ts';
import { compact } from '../../graphql/inputs.ts';
import { scoped } from '../../graphql/scoped.ts';
import { parseInput } from '../../shared/validation.ts';
import { CodeRef, CreateCodeInputRef, parseCreate } from '../codes/graphql.ts';
import { MIN_PIXELS_PER_MODULE } from './scannable-size.ts';
import { imageQuerySchema, type ImagesService } from './service.ts';

declare module '../../graphql/context.ts' {
  interface GraphQLServices {
    images: ImagesService;
  }
}

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
