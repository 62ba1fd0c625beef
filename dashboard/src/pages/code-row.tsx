// One row of the codes table: what a person calls the code (its name, else its scan URL) linking
// to its editor, the scan URL to copy (not a link: following it would count as a scan), and the
// image to download in each format.
import { TagLabels } from '../code-form/tag-field.tsx';
import { CopyButton } from '../components/copy-button.tsx';
import { FormatDownloads } from '../components/format-downloads.tsx';
import { Link } from '../components/link.tsx';
import { QrImage } from '../components/qr-image.tsx';
import { codeTitle, describeContent, formatCount, formatDateTime } from '../format.ts';
import { useT } from '../i18n/index.ts';
import { StatusBadge } from './status-badge.tsx';

export interface CodeRow {
  id: string;
  type: string;
  content: unknown;
  name: string | null;
  scanUrl: string | null;
  tags: string[];
  status: string;
  state: string;
  createdAt: string;
  design: { style: string };
  scanCount: number;
  svg: string;
}

/** The size a list download is drawn at: large enough for print, the image route's default for PDF too. */
const DOWNLOAD_SIZE = 1024;

export function CodeRowView({ code, colors }: { code: CodeRow; colors: Map<string, string | null> }) {
  const t = useT();
  const title = codeTitle(code);
  return (
    <tr data-code-id={code.id}>
      <td>
        <QrImage svg={code.svg} alt={t.codes.imageOf(title)} class="thumb" lazy />
      </td>
      <td class="name-cell">
        <Link to={`/codes/${code.id}`}>{title}</Link>
        <TagLabels names={code.tags} colors={colors} />
      </td>
      <td>
        <StatusBadge status={code.status} state={code.state} />
      </td>
      <td class="scan-url-cell">
        {code.scanUrl ? (
          <>
            <code>{code.scanUrl}</code> <CopyButton text={code.scanUrl} what={t.codes.scanUrlOf(title)} />
          </>
        ) : (
          <span class="hint">{t.codes.staticCode}</span>
        )}
      </td>
      <td class="content-cell">{describeContent(code.type, code.content)}</td>
      <td>{code.design.style}</td>
      <td class="number">
        <Link to={`/codes/${code.id}/analytics`}>{formatCount(code.scanCount)}</Link>
      </td>
      <td>{formatDateTime(code.createdAt)}</td>
      <td>
        <FormatDownloads
          what={t.codes.downloadsOf(title)}
          file={(format) => ({
            path: `/v1/codes/${encodeURIComponent(code.id)}/image?format=${format}&size=${DOWNLOAD_SIZE}`,
            filename: `${code.id}.${format}`,
          })}
        />
      </td>
    </tr>
  );
}
