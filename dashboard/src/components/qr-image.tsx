// A QR image from SVG markup the server rendered, shown through a data: URL in <img>: an image
// runs no script, so the markup needs no sanitising, and the page's CSP allows img-src data:.
export function QrImage({ svg, alt, class: className }: { svg: string; alt: string; class?: string }) {
  return <img class={className} src={`data:image/svg+xml;charset=utf-8,${encodeURIComponent(svg)}`} alt={alt} />;
}
