// Screenshot pixel statistics, computed in the page (no PNG decoder in Node needed).

/**
 * Decodes a screenshot (PNG or JPEG) in `page` and returns {mean, std, distinct, bright}
 * over its pixels' luma (0..255), within `crop` ({x, y, width, height} as
 * fractions of the image; default the whole image).
 */
export async function pixelStats(page, png, crop = { x: 0, y: 0, width: 1, height: 1 }) {
  return page.evaluate(async ({ base64, crop }) => {
    const bytes = Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));
    const bitmap = await createImageBitmap(new Blob([bytes]));
    const canvas = new OffscreenCanvas(bitmap.width, bitmap.height);
    const g = canvas.getContext('2d');
    g.drawImage(bitmap, 0, 0);
    const { data } = g.getImageData(
      Math.round(crop.x * bitmap.width), Math.round(crop.y * bitmap.height),
      Math.max(1, Math.round(crop.width * bitmap.width)), Math.max(1, Math.round(crop.height * bitmap.height)),
    );
    let sum = 0;
    let sum2 = 0;
    let bright = 0;
    const colors = new Set();
    const n = data.length / 4;
    for (let i = 0; i < data.length; i += 4) {
      const y = 0.2126 * data[i] + 0.7152 * data[i + 1] + 0.0722 * data[i + 2];
      sum += y;
      sum2 += y * y;
      if (y > 250) bright++;
      if ((i / 4) % 7 === 0) colors.add((data[i] << 16) | (data[i + 1] << 8) | data[i + 2]);
    }
    const mean = sum / n;
    return { mean, std: Math.sqrt(Math.max(0, sum2 / n - mean * mean)), distinct: colors.size, bright: bright / n };
  }, { base64: png.toString('base64'), crop });
}
