// The list of links in a JSON export: parsed, found where the format keeps it, each item an object.
import { unreadable, type ImportFormat } from '../model.ts';

export function readJsonList(
  format: ImportFormat,
  content: string,
  find: (json: unknown) => unknown,
  where: string,
): Record<string, unknown>[] {
  let json: unknown;
  try {
    json = JSON.parse(content);
  } catch (err) {
    throw unreadable(format, `the JSON cannot be read (${(err as Error).message})`);
  }
  const list = Array.isArray(json) ? json : find(json);
  if (!Array.isArray(list)) throw unreadable(format, `it has no list of links at ${where}`);
  return list.map((item) => (typeof item === 'object' && item !== null && !Array.isArray(item) ? item : {})) as Record<
    string,
    unknown
  >[];
}

/** `json.a.b…`, or undefined where a step is missing. */
export function at(json: unknown, ...path: string[]): unknown {
  let value = json;
  for (const step of path) {
    if (typeof value !== 'object' || value === null) return undefined;
    value = (value as Record<string, unknown>)[step];
  }
  return value;
}
