// What sells the hotel and its rooms (API.md 9.1): photos in a gallery (swipe on a phone, arrow
// keys and buttons on a desktop), descriptions, beds, size, amenities as icons with text, and the
// address with a plain link to a map. Photos come from the service's own /media/ sizes.
import { h } from '../shared/dom.js';
import { t } from '../shared/i18n.js';

const SVG = 'http://www.w3.org/2000/svg';
// One 24×24 outline per amenity, drawn here (no icon font, nothing fetched).
const ICONS = {
  wifi: 'M2 9a15 15 0 0 1 20 0M5 12.5a10 10 0 0 1 14 0M8.5 16a5 5 0 0 1 7 0M12 19.5h.01',
  air_conditioning: 'M3 5h18v7H3zM7 16v3M12 16v4M17 16v3M6 9h12',
  heating: 'M8 20c-2-3 2-5 0-8s2-5 0-8M13 20c-2-3 2-5 0-8s2-5 0-8M18 20c-2-3 2-5 0-8s2-5 0-8',
  balcony: 'M4 12h16M4 12v8M20 12v8M8 12v8M12 12v8M16 12v8M4 20h16M7 3h10v9H7z',
  terrace: 'M3 20h18M12 4v16M5 9l7-5 7 5z',
  sea_view: 'M2 15c3-2 5-2 8 0s5 2 8 0 4-1 4-1M2 19c3-2 5-2 8 0s5 2 8 0M12 3v8l5-2',
  city_view: 'M3 21V9h5v12M8 21V4h7v17M15 21v-9h6v9M2 21h20',
  garden_view: 'M12 21v-7M12 14c-4 0-6-3-6-6a6 6 0 0 1 12 0c0 3-2 6-6 6zM5 21h14',
  bathtub: 'M3 12h18v3a5 5 0 0 1-5 5H8a5 5 0 0 1-5-5zM6 12V6a2 2 0 0 1 4 0M7 20l-1 2M17 20l1 2',
  walk_in_shower: 'M5 21V8a5 5 0 0 1 10 0M12 11h6M13 14v1M15 15v1M17 14v1M14 18v1M16 18v1',
  kitchenette: 'M4 4h16v16H4zM4 10h16M8 7h.01M12 7h.01M9 14h6v3H9z',
  minibar: 'M6 3h12v18H6zM6 9h12M9 6v1M9 12v3',
  coffee_maker: 'M5 8h11v7a4 4 0 0 1-4 4H9a4 4 0 0 1-4-4zM16 10h2a2 2 0 0 1 0 4h-2M8 2v3M12 2v3',
  tv: 'M3 5h18v12H3zM8 21h8M12 17v4',
  desk: 'M3 9h18M5 9v11M19 9v11M14 9v5h5M8 5h5v4',
  safe: 'M4 4h16v16H4zM12 9a3 3 0 1 0 0 6 3 3 0 0 0 0-6zM12 12h.01M7 20v1M17 20v1',
  hairdryer: 'M4 9a5 5 0 1 0 10 0 5 5 0 0 0-10 0zM14 7h6v4h-6M9 14l1 7h3l-1-7',
  step_free_access: 'M12 4a2 2 0 1 0 0 .01M10 8l1 6h5l3 5M11 11h5M8 12a5 5 0 1 0 6 7',
  non_smoking: 'M3 14h12v3H3zM18 14v3M21 14v3M4 4l16 16',
  soundproofing: 'M4 9h4l5-4v14l-5-4H4zM17 9l4 6M21 9l-4 6',
  washing_machine: 'M5 3h14v18H5zM12 9a4 4 0 1 0 0 8 4 4 0 0 0 0-8zM8 6h.01M11 6h.01',
  pets_allowed:
    'M8 7a1.5 1.5 0 1 0 0 .01M16 7a1.5 1.5 0 1 0 0 .01M5 11a1.5 1.5 0 1 0 0 .01M19 11a1.5 1.5 0 1 0 0 .01M12 12c-3 0-5 4-5 6s2 2 5 2 5 0 5-2-2-6-5-6z',
};

function icon(code) {
  const svg = document.createElementNS(SVG, 'svg');
  for (const [k, v] of Object.entries({
    viewBox: '0 0 24 24',
    width: 22,
    height: 22,
    'aria-hidden': 'true',
    focusable: 'false',
  }))
    svg.setAttribute(k, String(v));
  const path = document.createElementNS(SVG, 'path');
  path.setAttribute('d', ICONS[code] ?? 'M12 12h.01');
  svg.append(path);
  return svg;
}

/** One photo: sizes for the screen (WebP first), its own width and height (no layout shift). */
function picture(photo, eager) {
  const img = h('img', {
    src: photo.src,
    srcset: photo.srcset || undefined,
    sizes: photo.srcset ? '(min-width: 48rem) 42rem, 100vw' : undefined,
    width: photo.width ?? undefined,
    height: photo.height ?? undefined,
    alt: photo.alt,
    loading: eager ? 'eager' : 'lazy',
    decoding: 'async',
  });
  if (!photo.webpSrcset) return img;
  return h(
    'picture',
    {},
    h('source', { type: 'image/webp', srcset: photo.webpSrcset, sizes: img.sizes }),
    img,
  );
}

/** A gallery: photos side by side in a scroll-snapping strip; buttons and arrow keys move it. */
export function gallery(photos, label, { eager = false } = {}) {
  if (!photos?.length) return null;
  const strip = h(
    'ul',
    { class: 'gallery-strip', tabindex: '0', 'aria-label': label },
    photos.map((p, i) => h('li', {}, picture(p, eager && i === 0))),
  );
  const move = (step) => strip.scrollBy({ left: step * strip.clientWidth, behavior: 'smooth' });
  strip.addEventListener('keydown', (event) => {
    if (event.key === 'ArrowRight') move(1);
    else if (event.key === 'ArrowLeft') move(-1);
    else return;
    event.preventDefault();
  });
  const buttons =
    photos.length > 1
      ? h(
          'div',
          { class: 'gallery-buttons' },
          h(
            'button',
            { type: 'button', class: 'secondary', onclick: () => move(-1) },
            '‹ ',
            t('book.photoPrevious'),
          ),
          h(
            'button',
            { type: 'button', class: 'secondary', onclick: () => move(1) },
            t('book.photoNext'),
            ' ›',
          ),
        )
      : null;
  return h('div', { class: 'gallery' }, strip, buttons);
}

function facts(room) {
  const beds = (room.beds ?? []).map((b) => t(`book.bed.${b.type}`, { count: b.count }));
  const parts = [...beds, room.sizeM2 ? t('book.size', { size: room.sizeM2 }) : null].filter(Boolean);
  return parts.length ? h('p', { class: 'room-facts' }, parts.join(' · ')) : null;
}

function amenities(codes) {
  if (!codes?.length) return null;
  return h(
    'ul',
    { class: 'amenities', 'aria-label': t('book.amenities') },
    codes.map((code) => h('li', {}, icon(code), h('span', {}, t(`book.amenity.${code}`)))),
  );
}

/** The hotel: its first photos, description and address with a link to a map. */
export function hotelIntro(hotel) {
  const map = hotel.location
    ? `https://www.openstreetmap.org/?mlat=${hotel.location.lat}&mlon=${hotel.location.lon}#map=17/${hotel.location.lat}/${hotel.location.lon}`
    : hotel.address
      ? `https://www.openstreetmap.org/search?query=${encodeURIComponent(hotel.address)}`
      : null;
  return [
    gallery(hotel.photos, t('book.hotelPhotos', { name: hotel.name }), { eager: true }),
    hotel.description ? h('p', {}, hotel.description) : null,
    hotel.address
      ? h(
          'p',
          { class: 'address' },
          h('span', {}, hotel.address),
          ' ',
          map ? h('a', { href: map, rel: 'noopener noreferrer', target: '_blank' }, t('book.openMap')) : null,
        )
      : null,
  ];
}

/** Every room type the hotel sells, with its gallery, description, beds, size and amenities. */
export function roomShowcase(hotel) {
  const rooms = hotel.roomTypes.filter((r) => r.photos?.length || r.description || r.amenities?.length);
  if (!rooms.length) return null;
  return h(
    'section',
    { class: 'stack', 'aria-labelledby': 'rooms-heading' },
    h('h2', { id: 'rooms-heading' }, t('book.rooms.heading')),
    h(
      'ul',
      { class: 'rooms' },
      rooms.map((room) =>
        h(
          'li',
          { class: 'card room' },
          h('h3', {}, room.name),
          gallery(room.photos, t('book.roomPhotos', { name: room.name })),
          room.description ? h('p', {}, room.description) : null,
          facts(room),
          amenities(room.amenities),
        ),
      ),
    ),
  );
}
