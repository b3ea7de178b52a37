// @ts-check
/**
 * The map of H3 cells, drawn by Leaflet (the global `L`, loaded by the page) as one GeoJSON
 * layer. There is no tile layer: the service works offline, so the cells sit on a plain
 * background and carry the picture themselves.
 */
import { formatValue } from './charts.js';
import { scaleColor, scaleGradient } from './stats.js';

/**
 * @typedef {{ id: string, geojson: any }} CellRecord
 */

/** @param {HTMLElement} el */
export function createCellMap(el) {
  // No animated zooms: the map is refitted on new data and on every window resize, and an
  // animated zoom still running when the next fit or a layer removal comes can end in
  // "Invalid LatLng object: (NaN, NaN)" (seen in the browser test on a loaded machine).
  const map = L.map(el, { zoomSnap: 0.25, zoomAnimation: false, fadeAnimation: false, markerZoomAnimation: false });
  map.attributionControl.setPrefix('Leaflet · cells: H3');
  /** @type {import('leaflet').GeoJSON | null} */
  let layer = null;
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
     * Draws the cells once (or again for a new set), fitting the view to them.
     * @param {CellRecord[]} cells
     */
    setCells(cells) {
      layer?.remove();
      layer = L.geoJSON(
        /** @type {any} */ ({
          type: 'FeatureCollection',
          features: cells.map((c) => ({ type: 'Feature', id: c.id, properties: { id: c.id }, geometry: c.geojson })),
        }),
        { style: { weight: 0.4, color: '#ffffff', fillOpacity: 0.85, fillColor: '#cccccc' } },
      ).addTo(map);
      fit();
    },
    /**
     * Colours every cell by its value on a square-root scale from 0 to `max`: a few cells hold
     * most of the wind and solar capacity, and a linear scale would leave the rest one colour.
     * @param {(id: string) => number | null} valueOf
     * @param {{ max: number, units: string, label: string }} scale
     */
    colour(valueOf, { max, units, label }) {
      layer?.eachLayer((l) => {
        const path = /** @type {import('leaflet').Path & { feature: any }} */ (l);
        const id = path.feature.properties.id;
        const v = valueOf(id);
        path.setStyle({ fillColor: v === null ? '#cccccc' : scaleColor(max > 0 ? Math.sqrt(Math.max(0, v) / max) : 0) });
        path.unbindTooltip().bindTooltip(`${id}: ${formatValue(v, units)}`, { sticky: true });
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
