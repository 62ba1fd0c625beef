// The world's countries as SVG paths, loaded as a chunk of its own (import()) when a map is
// first drawn, so the first bundle does not carry the shapes. They are projected at build time
// (dashboard/build/world-shapes.ts): the browser only parses finished paths.
export { HEIGHT, WIDTH, outline, shapes } from 'virtual:world-shapes';
