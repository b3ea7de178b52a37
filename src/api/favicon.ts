/**
 * The service's icon, drawn here rather than shipped as a file: three rising bars (a forecast)
 * on a blue rounded square. One drawing, two encodings: SVG for pages that link it, and a
 * 32×32 ICO for browsers that ask for /favicon.ico on their own.
 */

const SIZE = 32;
const BLUE = [0x25, 0x63, 0xc9] as const;
/** The bars as [x, y, width, height] on the 32×32 grid. */
const BARS: readonly (readonly [number, number, number, number])[] = [
  [6, 18, 5, 8],
  [13.5, 12, 5, 14],
  [21, 6, 5, 20],
];
const CORNER = 6;

export const FAVICON_SVG =
  `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${SIZE} ${SIZE}">` +
  `<rect width="${SIZE}" height="${SIZE}" rx="${CORNER}" fill="rgb(${BLUE.join(',')})"/>` +
  BARS.map(([x, y, w, h]) => `<rect x="${x}" y="${y}" width="${w}" height="${h}" fill="#fff"/>`).join('') +
  '</svg>';

/** Inside the rounded square (pixel centre at x + ½, y + ½). */
function inSquare(x: number, y: number): boolean {
  const cx = Math.min(Math.max(x + 0.5, CORNER), SIZE - CORNER);
  const cy = Math.min(Math.max(y + 0.5, CORNER), SIZE - CORNER);
  return (x + 0.5 - cx) ** 2 + (y + 0.5 - cy) ** 2 <= CORNER ** 2;
}

const inBar = (x: number, y: number) =>
  BARS.some(([bx, by, w, h]) => x + 0.5 >= bx && x + 0.5 <= bx + w && y + 0.5 >= by && y + 0.5 <= by + h);

/**
 * An ICO holding one 32×32, 32-bit BMP image: the icon directory, its one entry, a
 * BITMAPINFOHEADER (height doubled for the AND mask, as ICO wants), BGRA rows bottom-up, and an
 * all-zero AND mask (transparency comes from the alpha channel).
 */
function icoBytes(): Buffer {
  const pixelBytes = SIZE * SIZE * 4;
  const maskBytes = SIZE * (Math.ceil(SIZE / 32) * 4);
  const image = Buffer.alloc(40 + pixelBytes + maskBytes);
  image.writeUInt32LE(40, 0); // biSize
  image.writeInt32LE(SIZE, 4); // biWidth
  image.writeInt32LE(SIZE * 2, 8); // biHeight: image and mask
  image.writeUInt16LE(1, 12); // biPlanes
  image.writeUInt16LE(32, 14); // biBitCount
  image.writeUInt32LE(pixelBytes + maskBytes, 20); // biSizeImage
  for (let y = 0; y < SIZE; y++) {
    for (let x = 0; x < SIZE; x++) {
      const at = 40 + ((SIZE - 1 - y) * SIZE + x) * 4;
      if (!inSquare(x, y)) continue; // transparent
      const [r, g, b] = inBar(x, y) ? [255, 255, 255] : BLUE;
      image.writeUInt8(b, at);
      image.writeUInt8(g, at + 1);
      image.writeUInt8(r, at + 2);
      image.writeUInt8(255, at + 3);
    }
  }
  const header = Buffer.alloc(6 + 16);
  header.writeUInt16LE(0, 0); // reserved
  header.writeUInt16LE(1, 2); // type: icon
  header.writeUInt16LE(1, 4); // one image
  header.writeUInt8(SIZE, 6); // width
  header.writeUInt8(SIZE, 7); // height
  header.writeUInt16LE(1, 10); // planes
  header.writeUInt16LE(32, 12); // bits per pixel
  header.writeUInt32LE(image.length, 14); // bytes of the image
  header.writeUInt32LE(header.length, 18); // where it starts
  return Buffer.concat([header, image]);
}

export const FAVICON_ICO: Buffer = icoBytes();
