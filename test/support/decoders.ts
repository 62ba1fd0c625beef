// Decoding images with tools that share no code with the service: zbar (Debian's zbar-tools)
// reads what our own check (jsQR) reads, poppler's pdftoppm rasterises PDFs, and ImageMagick
// degrades images the way displays, publishing tools and cameras do. They run as child
// processes, a few at a time, on files in a temporary folder.
import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

const exec = promisify(execFile);

/** Tools at once: the machine may have 2 cores, and the test's own thread renders meanwhile. */
const PARALLEL = 3;
let running = 0;
const queue: (() => void)[] = [];

async function limited<T>(work: () => Promise<T>): Promise<T> {
  if (running >= PARALLEL) await new Promise<void>((resolve) => queue.push(resolve));
  running++;
  try {
    return await work();
  } finally {
    running--;
    queue.shift()?.();
  }
}

/** stdout of a tool, also when it exits non-zero (zbarimg exits 4 when an image has no code). */
async function tool(command: string, args: string[]): Promise<string> {
  return limited(async () => {
    try {
      return (await exec(command, args, { maxBuffer: 64 << 20 })).stdout;
    } catch (err) {
      const { stdout, code } = err as { stdout?: string; code?: unknown };
      if (typeof code === 'number' && stdout !== undefined) return stdout;
      throw err;
    }
  });
}

/** Each tool, the option that makes it print its version, and the Debian package it comes in. */
const TOOLS = [
  ['zbarimg', '--version', 'zbar-tools'],
  ['pdftoppm', '-v', 'poppler-utils'],
  ['convert', '-version', 'imagemagick'],
] as const;

/** Fails with what to install when a tool is missing (.ci/run installs them). */
export async function requireDecoderTools(): Promise<void> {
  const missing: string[] = [];
  for (const [command, versionOption, pkg] of TOOLS) {
    const version = await exec(command, [versionOption]).then(
      (out) => out.stdout + out.stderr,
      (err: { stdout?: string; stderr?: string }) => `${err.stdout ?? ''}${err.stderr ?? ''}`,
    );
    // pdftoppm and zbarimg print a version; `convert` must be ImageMagick's, not another program of that name.
    const ok = command === 'convert' ? /ImageMagick/.test(version) : /\d+\.\d+/.test(version);
    if (!ok) missing.push(`${command} (apt-get install -y ${pkg})`);
  }
  if (missing.length > 0) throw new Error(`The decoder tests need ${missing.join(', ')}.`);
}

/** A temporary folder for one test file's images, and a way to remove it. */
export async function scratchDir(): Promise<{
  path: (name: string) => string;
  write: (name: string, bytes: Uint8Array) => Promise<string>;
  remove: () => Promise<void>;
}> {
  const dir = await mkdtemp(join(tmpdir(), 'qr-decoders-'));
  const path = (name: string) => join(dir, name);
  return {
    path,
    write: async (name, bytes) => {
      await writeFile(path(name), bytes);
      return path(name);
    },
    remove: () => rm(dir, { recursive: true, force: true }),
  };
}

// QR codes only; both polarities, as phone scanners and our own check (jsQR, attemptBoth) read
// them: zbar skips light-on-dark codes unless told to try the inverted image too.
const ZBAR = ['--raw', '-q', '--nodbus', '-Sdisable', '-Sqrcode.enable', '-Stest-inverted'];

/**
 * What zbar reads in each image file: its text, or null when it finds no code. One zbarimg reads
 * them all when each gives `expected` (its raw output is then `expected` once per file); only
 * otherwise is each file read alone, to tell which one failed.
 */
export async function zbarRead(files: string[], expected: string): Promise<(string | null)[]> {
  if (files.length === 0) return [];
  const all = await tool('zbarimg', [...ZBAR, ...files]);
  if (all === `${expected}\n`.repeat(files.length)) return files.map(() => expected);
  return Promise.all(
    files.map(async (file) => {
      const out = await tool('zbarimg', [...ZBAR, file]);
      return out === '' ? null : out.replace(/\n$/, '');
    }),
  );
}

/**
 * Ways a served image gets worse before a camera sees it, as ImageMagick options. Each is mild
 * on its own, in the image's pixels: shown smaller than it was made, softened by a resampling
 * or an out-of-focus print, re-encoded as a lossy JPEG by a publishing tool, and placed at a
 * slight angle (the corners filled with the code's own background).
 */
export const DEGRADATIONS = {
  'downscaled to 75%': { ext: 'png', options: () => ['-resize', '75%'] },
  'blurred (Gaussian, sigma 1 px)': { ext: 'png', options: () => ['-blur', '0x1'] },
  'JPEG at quality 50': { ext: 'jpg', options: () => ['-quality', '50'] },
  'rotated 5 degrees': { ext: 'png', options: (background: string) => ['-background', background, '-rotate', '5'] },
} as const;

export type Degradation = keyof typeof DEGRADATIONS;

/** Each degradation of the PNG at `file`, made by one ImageMagick run: the files it wrote, by name. */
export async function degrade(file: string, background: string): Promise<Record<Degradation, string>> {
  const out = {} as Record<Degradation, string>;
  const args = [file];
  Object.entries(DEGRADATIONS).forEach(([name, { ext, options }], i) => {
    out[name as Degradation] = `${file}.degraded-${i}.${ext}`;
    args.push('(', '+clone', ...options(background), '-write', out[name as Degradation], '+delete', ')');
  });
  await tool('convert', [...args, 'null:']);
  return out;
}

/**
 * The PDF's one page as a PNG at `dpi` (72: one pixel per point, the size the PDF was asked
 * for), rasterised by poppler, which shares nothing with resvg or pdfkit.
 */
export async function rasterisePdf(file: string, dpi = 72): Promise<string> {
  const prefix = `${file}.${dpi}dpi`;
  await tool('pdftoppm', ['-r', String(dpi), '-png', '-singlefile', file, prefix]);
  return `${prefix}.png`;
}
