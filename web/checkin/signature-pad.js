// A signature drawn with a finger, a pen or a mouse (pointer events), exported as a PNG data URL.

export function createSignaturePad(canvas) {
  const context = canvas.getContext('2d');
  let strokes = 0;
  let drawing = false;

  // Draw at the screen's pixel density (at most 2×, to keep the PNG small).
  const resize = () => {
    const ratio = Math.min(2, window.devicePixelRatio || 1);
    const { width, height } = canvas.getBoundingClientRect();
    if (width === 0) return;
    canvas.width = Math.round(width * ratio);
    canvas.height = Math.round(height * ratio);
    context.setTransform(ratio, 0, 0, ratio, 0, 0);
    context.lineWidth = 2.5;
    context.lineCap = 'round';
    context.lineJoin = 'round';
    context.strokeStyle = '#111';
    strokes = 0;
  };
  const point = (event) => {
    const rect = canvas.getBoundingClientRect();
    return [event.clientX - rect.left, event.clientY - rect.top];
  };

  canvas.addEventListener('pointerdown', (event) => {
    if (event.button !== 0 && event.pointerType === 'mouse') return;
    event.preventDefault();
    canvas.setPointerCapture(event.pointerId);
    drawing = true;
    const [x, y] = point(event);
    context.beginPath();
    context.moveTo(x, y);
    context.lineTo(x + 0.1, y + 0.1);
    context.stroke();
  });
  canvas.addEventListener('pointermove', (event) => {
    if (!drawing) return;
    for (const e of event.getCoalescedEvents?.() ?? [event]) {
      const [x, y] = point(e);
      context.lineTo(x, y);
    }
    context.stroke();
  });
  const end = () => {
    if (!drawing) return;
    drawing = false;
    strokes += 1;
    canvas.dispatchEvent(new Event('signaturechange'));
  };
  canvas.addEventListener('pointerup', end);
  canvas.addEventListener('pointercancel', end);

  requestAnimationFrame(resize);
  return {
    isEmpty: () => strokes === 0,
    toDataUrl: () => canvas.toDataURL('image/png'),
    /** For a guest who cannot draw (keyboard, screen reader): the typed name, written on the pad. */
    writeName(name) {
      const { width, height } = canvas.getBoundingClientRect();
      context.clearRect(0, 0, canvas.width, canvas.height);
      context.font = `italic ${Math.round(height / 4)}px Georgia, serif`;
      context.fillStyle = '#111';
      context.textAlign = 'center';
      context.textBaseline = 'middle';
      context.fillText(name, width / 2, height / 2, width - 20);
      strokes = name.trim() ? 1 : 0;
      canvas.dispatchEvent(new Event('signaturechange'));
    },
    clear() {
      context.clearRect(0, 0, canvas.width, canvas.height);
      strokes = 0;
      canvas.dispatchEvent(new Event('signaturechange'));
    },
  };
}
