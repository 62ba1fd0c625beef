// An image the code uses, uploaded from the editor (a logo, a business card's photo): a file
// input that sends the chosen file to POST /v1/images at once and keeps the new image's id, the
// image shown small with a button to remove it, and the workspace's earlier uploads to pick
// again. Why an upload was refused (too large, not an image) is the field's own problem, tied
// to the file input like the server's problems with the saved code.
import { useState } from 'preact/hooks';
import { Field, Select } from '../components/field.tsx';
import { ApiError, type FieldProblem } from '../graphql.ts';
import { useT } from '../i18n/index.ts';
import { RECENT_IMAGES, uploadImage, useImageSource, type RecentImages } from '../images.ts';
import { useQuery } from '../use-query.ts';

export const ACCEPTED_IMAGES = 'image/png,image/jpeg,image/webp,image/svg+xml';

interface ImageUploadProps {
  /** The file input's id. */
  id: string;
  label: string;
  hint: string;
  /** Where the server reports problems with the image the code names (`design.logoImageId`). */
  path: string;
  problems: FieldProblem[];
  /** The chosen image's id, '' for none. */
  imageId: string;
  /** The image's text alternative, and the remove button's words. */
  alt: string;
  removeLabel: string;
  onChange: (imageId: string) => void;
}

export function ImageUpload({
  id,
  label,
  hint,
  path,
  problems,
  imageId,
  alt,
  removeLabel,
  onChange,
}: ImageUploadProps) {
  const t = useT().editor.upload;
  const [busy, setBusy] = useState(false);
  const [refused, setRefused] = useState<string | null>(null);
  const { data: recent } = useQuery<RecentImages>(RECENT_IMAGES, {});
  const earlier = (recent?.images.edges ?? []).map((edge) => edge.node);

  async function upload(input: HTMLInputElement) {
    const file = input.files?.[0];
    if (!file) return;
    setBusy(true);
    setRefused(null);
    try {
      const image = await uploadImage(file);
      onChange(image.id);
      // Uploaded and shown: the input is free to take the next file (the same one again included).
      input.value = '';
    } catch (err) {
      setRefused(reasonOf(err, t.tooLarge));
    } finally {
      setBusy(false);
    }
  }

  const own = refused ? [{ path, message: refused }] : [];
  return (
    <>
      <Field label={label} id={id} path={path} problems={[...problems, ...own]} hint={hint}>
        <input
          id={id}
          type="file"
          accept={ACCEPTED_IMAGES}
          disabled={busy}
          onChange={(e) => void upload(e.currentTarget)}
        />
        <span class="visually-hidden" role="status">
          {busy ? t.uploading : (refused ?? '')}
        </span>
        {busy && <span class="hint">{t.uploading}</span>}
        {imageId && (
          <span class="uploaded-image">
            <Thumbnail id={imageId} alt={alt} />
            <button type="button" class="secondary" onClick={() => onChange('')}>
              {removeLabel}
            </button>
          </span>
        )}
      </Field>
      {earlier.length > 0 && (
        <Field label={t.uploadedBefore} id={`${id}-earlier`}>
          <Select
            id={`${id}-earlier`}
            value=""
            options={['', ...earlier.map((image) => image.id)]}
            labels={Object.fromEntries([
              ['', t.chooseUploaded],
              ...earlier.map((image) => [image.id, image.name ?? image.id]),
            ])}
            onChange={(chosen) => chosen && onChange(chosen)}
          />
        </Field>
      )}
    </>
  );
}

/** What the server said about the file: its problem with `file` (422), "too large" in the page's words (413). */
function reasonOf(err: unknown, tooLarge: string): string {
  if (!(err instanceof ApiError)) return err instanceof Error ? err.message : String(err);
  if (err.code === 'HTTP_413') return tooLarge;
  return err.problems.find((p) => p.path === 'file')?.message ?? err.message;
}

function Thumbnail({ id, alt }: { id: string; alt: string }) {
  const t = useT().editor.upload;
  const source = useImageSource(id);
  if (source === 'loading') return <span class="hint">{t.loadingImage}</span>;
  if (source === 'failed') return <span class="hint">{t.notShown}</span>;
  return <img src={source} alt={alt} />;
}
