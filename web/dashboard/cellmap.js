// @ts-check
/**
 * The map of H3 cells, drawn by Leaflet (the global `L`, loaded by the page) as one GeoJSON
 * layer, with the state lines on top. There is no tile layer: the service works offline, so the
 * cells sit on a plain background; the state lines and the county names of the tooltips come
 * from us-atlas (served with the page, read by topojson-client).
 */
import { formatValue } from './charts.js';
import { inPolygon, polygonsOf, scaleColor, scaleGradient } from './stats.js';

/**
 * @typedef {{ id: string, latitude: number, longitude: number, geojson: any }} CellRecord
 * @typedef {{ name: string, bbox: [number, number, number, number], polygons: number[][][][] }} County
 */

/** Fill of a cell that has no series (no plants of the metric in it): not a colour of the scale. */
const NO_PLANTS_FILL = '#cfcfcf';

/**
 * "Harris County, Texas" (Louisiana's counties are parishes; Virginia's independent cities
 * are named as such already).
 * @param {string} county
 * @param {string} state
 */
function countyLabel(county, state) {
  if (/ city$/i.test(county)) return `${county}, ${state}`;
  return `${county} ${state === 'Louisiana' ? 'Parish' : 'County'}, ${state}`;
}

/**
 * The US counties and state lines, fetched once per page.
 * @returns {Promise<{ counties: County[], stateLines: any }>}
 */
async function loadAtlas() {
  const res = await fetch('/dashboard/assets/us-counties.json');
  if (!res.ok) throw new Error(`us-counties.json: ${res.status}`);
  const us = await res.json();
  /** @type {Map<string, string>} */
  const stateNames = new Map(
    /** @type {any} */ (topojson.feature(us, us.objects.states)).features.map((/** @type {any} */ f) => [String(f.id), f.properties.name]),
  );
  const counties = /** @type {any} */ (topojson.feature(us, us.objects.counties)).features.map((/** @type {any} */ f) => {
    const polygons = polygonsOf(f.geometry);
    const points = polygons.flat(2);
    const xs = points.map((p) => p[0]);
    const ys = points.map((p) => p[1]);
    const state = stateNames.get(String(f.id).slice(0, 2)) ?? '';
    return {
      name: countyLabel(f.properties.name, state),
      bbox: [Math.min(...xs), Math.min(...ys), Math.max(...xs), Math.max(...ys)],
      polygons,
    };
  });
  return { counties, stateLines: topojson.mesh(us, us.objects.states) };
}

/**
 * The county a cell is in: the one holding its centre, else (a border cell whose centre lies
 * outside the footprint) the one holding the middle of its clipped shape; '' outside the US.
 * @param {County[]} counties
 * @param {CellRecord} cell
 */
function countyOfCell(counties, cell) {
  const ring = polygonsOf(cell.geojson)[0]?.[0] ?? [];
  const middle = ring.length > 0 ? [0, 1].map((k) => ring.reduce((sum, p) => sum + p[k], 0) / ring.length) : null;
  for (const [x, y] of [[cell.longitude, cell.latitude], ...(middle ? [middle] : [])]) {
    const hit = counties.find(
      (c) => x >= c.bbox[0] && x <= c.bbox[2] && y >= c.bbox[1] && y <= c.bbox[3] && c.polygons.some((p) => inPolygon(p, x, y)),
    );
    if (hit) return hit.name;
  }
  return '';
}

/** @param {HTMLElement} el */
export function createCellMap(el) {
  // No animated zooms: the map is refitted on new data and on every window resize, and an
  // animated zoom still running when the next fit or a layer removal comes can end in
  // "Invalid LatLng object: (NaN, NaN)" (seen in the browser test on a loaded machine).
  const map = L.map(el, { zoomSnap: 0.25, zoomAnimation: false, fadeAnimation: false, markerZoomAnimation: false });
  map.attributionControl.setPrefix('Leaflet · cells: H3');
  /** @type {import('leaflet').GeoJSON | null} */
  let layer = null;
  /** The county of each cell drawn, for the tooltips. */
  /** @type {Map<string, string>} */
  let countyNames = new Map();
  const atlas = loadAtlas();
  /** @type {import('leaflet').GeoJSON | null} */
  let stateLines = null;
  void atlas.then(({ stateLines: lines }) => {
    stateLines = L.geoJSON(lines, { interactive: false, style: { color: '#555', weight: 1, opacity: 0.8, fill: false } }).addTo(map);
  });
  /** @type {HTMLElement | null} */
  let legendBody = null;

  /**
   * Fits the view to the cells, when there are cells and the map has room for them inside the
   * padding (Leaflet's zoom for a box smaller than its padding is NaN).
   */
  const fit = () => {
    const padding = 8;
    const size = map.getSize();
    const bounds = layer?.getBounds();
    if (bounds?.isValid() && size.x > 2 * padding && size.y > 2 * padding) map.fitBounds(bounds, { padding: [padding, padding] });
  };

  const legend = new L.Control({ position: 'bottomright' });
  legend.onAdd = () => {
    const div = L.DomUtil.create('div', 'map-legend');
    legendBody = div;
    return div;
  };
  legend.addTo(map);

  return {
    /**
     * Draws the cells once (or again for a new set), fitting the view to them, under the state
     * lines; resolves when the counties of the tooltips are known.
     * @param {CellRecord[]} cells
     */
    async setCells(cells) {
      layer?.remove();
      layer = L.geoJSON(
        /** @type {any} */ ({
          type: 'FeatureCollection',
          features: cells.map((c) => ({ type: 'Feature', id: c.id, properties: { id: c.id }, geometry: c.geojson })),
        }),
        { style: { weight: 0.4, color: '#ffffff', fillOpacity: 0.85, fillColor: NO_PLANTS_FILL } },
      ).addTo(map);
      fit();
      const { counties } = await atlas;
      countyNames = new Map(cells.map((c) => [c.id, countyOfCell(counties, c)]));
      stateLines?.bringToFront();
    },
    /**
     * Colours every cell by its value on a square-root scale from 0 to `max`: a few cells hold
     * most of the wind and solar capacity, and a linear scale would leave the rest one colour.
     * `valueOf` gives undefined for a cell without a series (no plants of the metric in it),
     * which is drawn apart from 0 MW, and null for a missing value.
     * @param {(id: string) => number | null | undefined} valueOf
     * @param {{ max: number, units: string, label: string, absent: string, noteOf: (id: string) => string }} scale
     */
    colour(valueOf, { max, units, label, absent, noteOf }) {
      layer?.eachLayer((l) => {
        const path = /** @type {import('leaflet').Path & { feature: any }} */ (l);
        const id = path.feature.properties.id;
        const v = valueOf(id);
        const fill = v === undefined || v === null ? NO_PLANTS_FILL : scaleColor(max > 0 ? Math.sqrt(Math.max(0, v) / max) : 0);
        path.setStyle({ fillColor: fill });
        const where = countyNames.get(id);
        const text = v === undefined ? absent : `${formatValue(v, units)}${noteOf(id)}`;
        path.unbindTooltip().bindTooltip(`${where ? `<b>${where}</b><br>` : ''}${id}: ${text}`, { sticky: true });
      });
      if (legendBody) {
        legendBody.replaceChildren();
        const title = L.DomUtil.create('div', 'map-legend-title', legendBody);
        title.textContent = label;
        const bar = L.DomUtil.create('div', 'map-legend-bar', legendBody);
        bar.style.background = scaleGradient();
        const ends = L.DomUtil.create('div', 'map-legend-ends', legendBody);
        // Ticks at 0, ½ and 1 of the bar: on a square-root scale the middle is a quarter of max.
        for (const value of [0, max / 4, max]) L.DomUtil.create('span', '', ends).textContent = formatValue(value, units);
        const key = L.DomUtil.create('div', 'map-legend-absent', legendBody);
        L.DomUtil.create('span', 'swatch', key).style.background = NO_PLANTS_FILL;
        L.DomUtil.create('span', '', key).textContent = absent;
        // Demand has a value in every cell.
        key.hidden = !layer?.getLayers().some((l) => valueOf(/** @type {any} */ (l).feature.properties.id) === undefined);
      }
    },
    clear() {
      layer?.remove();
      layer = null;
      legendBody?.replaceChildren();
    },
    resize() {
      map.invalidateSize();
      fit();
    },
  };
}
