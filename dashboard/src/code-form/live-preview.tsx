// The image as the form stands, redrawn by the server (previewCode) a moment after the last
// change: the same checks as saving (colors, contrast, logo, does it scan), nothing saved.
import { useEffect, useState } from 'preact/hooks';
import { QrImage } from '../components/qr-image.tsx';
import { ApiError, graphql, type FieldProblem } from '../graphql.ts';
import { useT } from '../i18n/index.ts';

const PREVIEW =
  'query Preview($input: CreateCodeInput!, $codeId: ID) { previewCode(input: $input, codeId: $codeId, size: 320) }';
const PAUSE_MS = 350;

export interface Preview {
  /** The last image that could be drawn; kept while a later change is refused. */
  svg: string | null;
  /** Why the current form cannot be drawn, when it cannot. */
  problems: FieldProblem[];
  message: string | null;
  pending: boolean;
}

/** `input` is null when the form has a problem of its own (bad JSON); `problems` then says what. */
export function usePreview(
  input: Record<string, unknown> | null,
  localProblems: FieldProblem[],
  saved: { id: string; svg: string } | null,
): Preview {
  const [preview, setPreview] = useState<Preview>({
    svg: saved?.svg ?? null,
    problems: [],
    message: null,
    pending: false,
  });
  const codeId = saved?.id;
  const inputKey = JSON.stringify(input);
  useEffect(() => {
    if (!input) {
      setPreview((p) => ({
        ...p,
        problems: localProblems,
        message: localProblems.map((l) => `${l.path} ${l.message}`).join('; '),
        pending: false,
      }));
      return;
    }
    let current = true;
    setPreview((p) => ({ ...p, pending: true }));
    const timer = setTimeout(() => {
      graphql<{ previewCode: string }>(PREVIEW, { input, codeId: codeId ?? null }).then(
        ({ previewCode }) => current && setPreview({ svg: previewCode, problems: [], message: null, pending: false }),
        (err: unknown) =>
          current &&
          setPreview((p) => ({
            ...p,
            pending: false,
            message: err instanceof Error ? err.message : String(err),
            problems: err instanceof ApiError ? err.problems : [],
          })),
      );
    }, PAUSE_MS);
    // A newer change supersedes this one, whether it was sent yet or not.
    return () => {
      current = false;
      clearTimeout(timer);
    };
  }, [inputKey, codeId]);
  return preview;
}

/** `shown` is false while the preview's problems belong to fields not touched yet: they wait. */
export function LivePreview({ preview, shown = true }: { preview: Preview; shown?: boolean }) {
  const t = useT().editor.preview;
  const message = shown ? preview.message : null;
  return (
    <figure class="preview" aria-busy={preview.pending}>
      {preview.svg ? (
        <QrImage svg={preview.svg} alt={t.alt} class={message ? 'stale' : undefined} />
      ) : (
        <div class="preview-empty">{t.none}</div>
      )}
      <figcaption>
        {message ? (
          <span class="preview-problem" role="alert">
            {t.cannotDraw(message)}
          </span>
        ) : preview.pending ? (
          t.updating
        ) : (
          t.live
        )}
      </figcaption>
    </figure>
  );
}
