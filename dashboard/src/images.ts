// The workspace's uploaded images (docs/images.md): a file sent as a form to POST /v1/images,
// the recent ones listed to pick again, and an image's PNG read back for a thumbnail. An
// <img src="/v1/images/:id/content"> would carry the cookie and nothing else: neither an API
// key or OAuth token (an Authorization header) nor the workspace a person works in (the
// Qr-Workspace header). So the bytes are fetched with the tab's credential and shown as a data:
// URL, which the dashboard's CSP allows for images (blob: URLs it does not).
import { useEffect, useState } from 'preact/hooks';
import { rest } from './graphql.ts';
import { authHeaders, currentCredential } from './session.ts';

export interface UploadedImage {
  id: string;
  name: string | null;
}

/** Uploads one file; rejects with the server's problem (413 too large, 422 not an image it takes). */
export function uploadImage(file: File): Promise<UploadedImage> {
  const form = new FormData();
  form.append('file', file);
  return rest<UploadedImage>('POST', '/v1/images', form);
}

/** GraphQL: the workspace's latest uploads, newest first. */
export const RECENT_IMAGES = '{ images(first: 20) { edges { node { id name } } } }';
export interface RecentImages {
  images: { edges: { node: UploadedImage }[] };
}

// An image never changes once uploaded: its data: URL is read once per tab.
const sources = new Map<string, Promise<string>>();

async function readDataUrl(id: string): Promise<string> {
  const credential = currentCredential();
  if (!credential) throw new Error('signed out');
  const res = await fetch(`/v1/images/${encodeURIComponent(id)}/content`, { headers: authHeaders(credential) });
  if (!res.ok) throw new Error(`HTTP ${res.status}`);
  const blob = await res.blob();
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(reader.result as string);
    reader.onerror = () => reject(reader.error ?? new Error('unreadable'));
    reader.readAsDataURL(blob);
  });
}

function dataUrlOf(id: string): Promise<string> {
  let source = sources.get(id);
  if (!source) {
    source = readDataUrl(id);
    // A failed read is tried again the next time the image is shown.
    source.catch(() => sources.delete(id));
    sources.set(id, source);
  }
  return source;
}

/** The image as a data: URL for <img>; 'loading' until it is read, 'failed' when it cannot be. */
export function useImageSource(id: string): string {
  const [source, setSource] = useState<{ id: string; url: string }>({ id, url: 'loading' });
  useEffect(() => {
    let current = true;
    dataUrlOf(id).then(
      (url) => current && setSource({ id, url }),
      () => current && setSource({ id, url: 'failed' }),
    );
    return () => void (current = false);
  }, [id]);
  return source.id === id ? source.url : 'loading';
}
