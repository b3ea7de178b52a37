// The libraries the page loads with classic <script> tags, as the globals they define.
declare global {
  const echarts: typeof import('echarts');
  const L: typeof import('leaflet');
  const topojson: typeof import('topojson-client');
}
export {};
