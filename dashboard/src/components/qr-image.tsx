// A QR image from SVG markup the server rendered, shown through a data: URL in <img>: an image
// runs no script, so the markup needs no sanitising, and the page's CSP allows img-src data:.
// `lazy` (a list's thumbnails): an image below the fold is decoded when it nears the screen; each
// SVG image is a document of its own to the browser, some 2-4 ms of main thread apiece here.
export function QrImage({
  svg,
  alt,
  class: className,
  lazy = false,
}: {
  svg: string;
  alt: string;
  class?: string;
  lazy?: boolean;
}) {
  return (
    <img
      class={className}
      src={`data:image/svg+xml;charset=utf-8,${encodeURIComponent(svg)}`}
      alt={alt}
      loading={lazy ? 'lazy' : undefined}
    />
  );
}
