// The per-row problems of a refused CSV, as a table of row, column and problem.
import type { FieldProblem } from '../graphql.ts';
import { useT } from '../i18n/index.ts';

/**
 * The server names CSV cells `row <n>.<column>` (the header is row 1), and GraphQL reports paths
 * in camelCase; the file's columns are snake_case (fg_color), so the names go back to those.
 */
function placeOf(path: string, header: string): { row: string; column: string } {
  const snake = (name: string) => name.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
  const row = /^row (\d+)(?:\.(.+))?$/.exec(path);
  if (row) return { row: row[1]!, column: row[2] ? snake(row[2]) : '' };
  const inHeader = /^header\.(.+)$/.exec(path);
  if (inHeader) return { row: header, column: snake(inHeader[1]!) };
  return { row: '', column: path };
}

export function RowProblems({ problems }: { problems: FieldProblem[] }) {
  const t = useT();
  const words = t.bulk.problems;
  if (problems.length === 0) return null;
  return (
    <table class="row-problems">
      <caption>{words.caption(problems.length)}</caption>
      <thead>
        <tr>
          <th class="number">{words.row}</th>
          <th>{words.column}</th>
          <th>{words.problem}</th>
        </tr>
      </thead>
      <tbody>
        {problems.map((p) => {
          const place = placeOf(p.path, words.header);
          return (
            <tr key={p.path + p.message} data-row={place.row}>
              <td class="number">{place.row}</td>
              <td>
                <code>{place.column}</code>
              </td>
              <td>{p.message}</td>
            </tr>
          );
        })}
      </tbody>
    </table>
  );
}
