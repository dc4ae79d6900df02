// /checkin and /checkin/{session}: find the booking, then one screen per step, then a screen
// showing the signed session verified. Reloading continues at the session's `nextStep`.

import { api, Problem } from '../shared/api.js';
import { payAndSend, paymentConfig, paymentField } from '../shared/card-payment.js';
import { append, field, h } from '../shared/dom.js';
import { busy, clearProblem, problemMessage, showProblem } from '../shared/forms.js';
import { date, language, money, t } from '../shared/i18n.js';
import { setTitle, show, startPage } from '../shared/layout.js';
import { MAX_PHOTO_BYTES, shrinkPhoto } from './photo.js';
import { createSignaturePad } from './signature-pad.js';
import { verifySignedSession } from './verify.js';

// The session id is a bearer secret: it stays in this path, never in a title, log or Referer.
const sessionId = decodeURIComponent(location.pathname.split('/')[2] ?? '');
const state = { signed: null, loadProblem: null, verification: null, photo: null, hotelNames: null };

/**
 * The hotel's name in the page's language (API.md 9): the signed session holds the plain one, so
 * the public hotel endpoint is asked once per language. Its plain name when that fails.
 */
async function loadHotelName() {
  const hotel = state.signed?.session.reservation.hotel;
  if (!hotel || state.hotelNames?.language === language()) return;
  let name = hotel.name;
  try {
    name = (await api('GET', `/booking/hotels/${encodeURIComponent(hotel.id)}`)).name;
  } catch {
    // the plain name stands
  }
  state.hotelNames = { language: language(), name };
}
const hotelName = (hotel) => state.hotelNames?.name ?? hotel.name;

const input = (name, attrs = {}) =>
  h('input', { type: 'text', name, maxlength: 100, required: true, ...attrs });
const countryInput = (name) =>
  input(name, {
    maxlength: 2,
    minlength: 2,
    autocapitalize: 'characters',
    autocomplete: 'country',
    class: 'short',
    pattern: '[A-Za-z]{2}',
  });

// ---- find the booking --------------------------------------------------------------------------

function renderFind() {
  setTitle(t('checkin.title'));
  const code = new URLSearchParams(location.search).get('code') ?? '';
  const form = h(
    'form',
    { class: 'card stack', novalidate: true, onsubmit: onFind },
    field(
      t('checkin.code'),
      input('reservationId', {
        value: code,
        autocapitalize: 'characters',
        autocomplete: 'off',
        maxlength: 32,
      }),
      {
        path: '/reservationId',
      },
    ),
    field(t('field.lastName'), input('lastName', { autocomplete: 'family-name' }), { path: '/lastName' }),
    h('button', { type: 'submit', class: 'primary' }, t('checkin.start')),
  );
  show(h('h1', {}, t('checkin.title')), h('p', {}, t('checkin.intro')), form);
}

async function onFind(event) {
  event.preventDefault();
  const form = event.currentTarget;
  const body = {
    reservationId: form.elements.reservationId.value.trim().toUpperCase(),
    lastName: form.elements.lastName.value.trim(),
  };
  clearProblem(form);
  await busy(form, async () => {
    try {
      const signed = await api('POST', '/checkin/sessions', { body });
      location.replace(`/checkin/${encodeURIComponent(signed.session.id)}`);
    } catch (error) {
      if (!(error instanceof Problem)) throw error;
      showProblem(form, error);
    }
  });
}

// ---- the steps -----------------------------------------------------------------------------------

function progress(session) {
  const steps = session.steps;
  const current = steps.findIndex((s) => s.name === session.nextStep);
  return h(
    'ol',
    { class: 'progress', 'aria-label': t('checkin.progress') },
    steps.map((step, index) =>
      h(
        'li',
        { class: `step-${step.status}`, 'aria-current': index === current ? 'step' : null },
        h('span', { class: 'visually-hidden' }, `${t(`stepStatus.${step.status}`)}: `),
        t(`step.${step.name}`),
      ),
    ),
  );
}

function renderSession() {
  const session = state.signed.session;
  const reservation = session.reservation;
  setTitle(`${t('checkin.title')} — ${hotelName(reservation.hotel)}`);
  const summary = h(
    'p',
    { class: 'muted' },
    t('checkin.summary', {
      code: reservation.id,
      hotel: hotelName(reservation.hotel),
      checkIn: date(reservation.checkIn),
      checkOut: date(reservation.checkOut),
    }),
  );
  if (session.status === 'cancelled') return show(h('h1', {}, t('checkin.cancelled')), summary);
  if (!session.nextStep) return renderDone(summary);
  const index = session.steps.findIndex((s) => s.name === session.nextStep);
  const form = h('form', {
    class: 'card stack',
    novalidate: true,
    onsubmit: (e) => onStep(e, session.nextStep),
  });
  STEP_FORMS[session.nextStep](form, session);
  show(
    h('p', { class: 'step-count' }, t('checkin.stepOf', { n: index + 1, total: session.steps.length })),
    progress(session),
    h('h1', {}, t(`step.${session.nextStep}`)),
    summary,
    form,
  );
}

const submitButton = () => h('button', { type: 'submit', class: 'primary' }, t('checkin.continue'));

const STEP_FORMS = {
  guest_details(form, session) {
    const [first = '', ...rest] = session.reservation.guestName.split(' ');
    append(
      form,
      h(
        'div',
        { class: 'row' },
        field(t('field.firstName'), input('firstName', { value: first, autocomplete: 'given-name' }), {
          path: '/data/firstName',
        }),
        field(
          t('field.lastName'),
          input('lastName', { value: rest.join(' '), autocomplete: 'family-name' }),
          { path: '/data/lastName' },
        ),
      ),
      field(
        t('field.email'),
        input('email', {
          type: 'email',
          autocomplete: 'email',
          maxlength: 254,
          // The booker's, to keep or change (an older server sends none).
          value: session.reservation.guestEmail ?? '',
        }),
        {
          path: '/data/email',
        },
      ),
      h(
        'div',
        { class: 'row' },
        field(t('field.dateOfBirth'), input('dateOfBirth', { type: 'date', autocomplete: 'bday' }), {
          path: '/data/dateOfBirth',
        }),
        field(t('field.nationality'), countryInput('nationality'), {
          path: '/data/nationality',
          hint: t('field.countryHint'),
        }),
      ),
      h(
        'div',
        { class: 'row' },
        field(
          t('field.phoneOptional'),
          input('phone', { type: 'tel', autocomplete: 'tel', required: false }),
          { path: '/data/phone' },
        ),
        field(t('field.arrivalTime'), input('arrivalTime', { type: 'time', required: false }), {
          path: '/data/arrivalTime',
        }),
      ),
      submitButton(),
    );
  },
  companions(form, session) {
    const r = session.reservation;
    const count = r.adults + r.children.length - 1;
    for (let i = 0; i < count; i++) {
      const p = `/data/guests/${i}`;
      append(
        form,
        h(
          'fieldset',
          { class: 'stack companion' },
          h('legend', {}, t('checkin.companion', { n: i + 2 })),
          h(
            'div',
            { class: 'row' },
            field(t('field.firstName'), input(`g${i}-firstName`), { path: `${p}/firstName` }),
            field(t('field.lastName'), input(`g${i}-lastName`), { path: `${p}/lastName` }),
          ),
          h(
            'div',
            { class: 'row' },
            field(t('field.dateOfBirth'), input(`g${i}-dateOfBirth`, { type: 'date' }), {
              path: `${p}/dateOfBirth`,
            }),
            field(t('field.nationality'), countryInput(`g${i}-nationality`), {
              path: `${p}/nationality`,
              hint: t('field.countryHint'),
            }),
          ),
        ),
      );
    }
    append(form, submitButton());
  },
  identity_document(form, session) {
    const preview = h('img', { class: 'photo-preview', alt: t('checkin.photoPreview'), hidden: true });
    const status = h('p', { class: 'hint', 'aria-live': 'polite' });
    const photo = h('input', { type: 'file', name: 'photo', accept: 'image/*', capture: 'environment' });
    photo.addEventListener('change', async () => {
      state.photo = null;
      preview.hidden = true;
      const file = photo.files?.[0];
      if (!file) return;
      status.textContent = t('checkin.photoShrinking');
      try {
        state.photo = await shrinkPhoto(file, MAX_PHOTO_BYTES);
        preview.src = state.photo;
        preview.hidden = false;
        status.textContent = t('checkin.photoReady');
      } catch {
        status.textContent = t('checkin.photoUnreadable');
      }
    });
    append(
      form,
      field(
        t('field.documentType'),
        h(
          'select',
          { name: 'type' },
          ['passport', 'national_id', 'driving_licence'].map((v) =>
            h('option', { value: v }, t(`document.${v}`)),
          ),
        ),
        { path: '/data/type' },
      ),
      field(
        t('field.documentNumber'),
        input('number', { maxlength: 40, autocomplete: 'off', autocapitalize: 'characters' }),
        { path: '/data/number' },
      ),
      h(
        'div',
        { class: 'row' },
        field(t('field.issuingCountry'), countryInput('issuingCountry'), {
          path: '/data/issuingCountry',
          hint: t('field.countryHint'),
        }),
        field(
          t('field.expiryDate'),
          input('expiryDate', { type: 'date', min: session.reservation.checkOut }),
          { path: '/data/expiryDate' },
        ),
      ),
      field(t('checkin.photo'), photo, { path: '/data/image', hint: t('checkin.photoHint') }),
      status,
      preview,
      submitButton(),
    );
  },
  signature(form, session) {
    const canvas = h('canvas', {
      class: 'signature-pad',
      role: 'img',
      'aria-label': t('checkin.signatureArea'),
      'data-path': '/data/signature',
    });
    const pad = createSignaturePad(canvas);
    state.pad = pad;
    append(
      form,
      h(
        'label',
        { class: 'check' },
        h('input', {
          type: 'checkbox',
          name: 'acceptTerms',
          'data-path': '/data/acceptTerms',
          id: 'accept-terms',
        }),
        h('span', {}, t('checkin.acceptTerms')),
      ),
      field(
        t('checkin.signerName'),
        input('signerName', { value: session.reservation.guestName, autocomplete: 'name' }),
        { path: '/data/signerName' },
      ),
      h('p', { id: 'signature-label' }, t('checkin.signHere')),
      canvas,
      h(
        'div',
        { class: 'buttons' },
        h(
          'button',
          { type: 'button', class: 'secondary', onclick: () => pad.clear() },
          t('checkin.clearSignature'),
        ),
        h(
          'button',
          {
            type: 'button',
            class: 'secondary',
            onclick: () => pad.writeName(form.elements.signerName.value),
          },
          t('checkin.signWithName'),
        ),
      ),
      submitButton(),
    );
  },
  payment(form, session) {
    const due = session.reservation.balanceDue;
    append(
      form,
      h('p', {}, t('checkin.balanceDue', { amount: money(due) })),
      paymentField('/data/token', t('checkin.payWith')),
      h('button', { type: 'submit', class: 'primary' }, t('checkin.pay', { amount: money(due) })),
    );
  },
};

/** The `data` of each step, read from its form (field names are in STEP_FORMS). */
const STEP_DATA = {
  guest_details(form) {
    const v = (name) => form.elements[name].value.trim();
    const data = {
      firstName: v('firstName'),
      lastName: v('lastName'),
      email: v('email'),
      dateOfBirth: v('dateOfBirth'),
      nationality: v('nationality').toUpperCase(),
    };
    if (v('phone')) data.phone = v('phone');
    if (v('arrivalTime')) data.arrivalTime = v('arrivalTime');
    return data;
  },
  companions(form) {
    const guests = [];
    for (const set of form.querySelectorAll('fieldset.companion')) {
      const i = guests.length;
      const v = (name) => form.elements[`g${i}-${name}`].value.trim();
      if (set)
        guests.push({
          firstName: v('firstName'),
          lastName: v('lastName'),
          dateOfBirth: v('dateOfBirth'),
          nationality: v('nationality').toUpperCase(),
        });
    }
    return { guests };
  },
  identity_document(form) {
    const v = (name) => form.elements[name].value.trim();
    const data = {
      type: v('type'),
      number: v('number'),
      issuingCountry: v('issuingCountry').toUpperCase(),
      expiryDate: v('expiryDate'),
    };
    if (state.photo) data.image = state.photo;
    return data;
  },
  signature(form) {
    return {
      acceptTerms: form.elements.acceptTerms.checked,
      signerName: form.elements.signerName.value.trim(),
      signature: state.pad.isEmpty() ? '' : state.pad.toDataUrl(),
    };
  },
  // payment: the card is read and sent by payAndSend (card-payment.js).
};

async function onStep(event, step) {
  event.preventDefault();
  const form = event.currentTarget;
  clearProblem(form);
  let done = false;
  await busy(form, async () => {
    try {
      const send = (data) =>
        api('POST', `/checkin/sessions/${encodeURIComponent(sessionId)}/step`, { body: { step, data } });
      state.signed =
        step === 'payment'
          ? await payAndSend(form, '/data/token', (token) => send({ token }))
          : await send(STEP_DATA[step](form));
      done = true;
    } catch (error) {
      if (!(error instanceof Problem)) throw error;
      if (
        error.code === 'step_out_of_order' ||
        error.code === 'session_completed' ||
        error.code === 'step_not_applicable'
      ) {
        // Another tab moved the session on: continue where it is now.
        await load();
        done = true;
        return;
      }
      showProblem(form, error);
    }
  });
  if (done) {
    state.photo = null;
    renderSession();
  }
}

// ---- done ------------------------------------------------------------------------------------------

function renderDone(summary) {
  const session = state.signed.session;
  const verification = h('p', { class: 'verification', 'aria-live': 'polite' }, t('verify.checking'));
  show(
    progress(session),
    h('h1', {}, t('checkin.done')),
    summary,
    h(
      'section',
      { class: 'card stack' },
      h('p', {}, t('checkin.doneText', { hotel: hotelName(session.reservation.hotel) })),
      h('p', {}, t('checkin.balanceDue', { amount: money(session.reservation.balanceDue) })),
      verification,
    ),
  );
  const paint = (result) => {
    verification.className = `verification verification-${result.status}`;
    verification.id = 'verification';
    verification.textContent =
      result.status === 'verified'
        ? t('verify.verified', { kid: result.kid.slice(0, 8) })
        : result.status === 'unsupported'
          ? t('verify.unsupported')
          : t('verify.failed', { reason: t(`verify.reason.${result.reason}`) });
  };
  if (state.verification) return paint(state.verification);
  verifySignedSession(state.signed)
    .catch(() => ({ status: 'failed', reason: 'network' }))
    .then((result) => {
      state.verification = result;
      paint(result);
    });
}

// ---- start -------------------------------------------------------------------------------------------

async function load() {
  try {
    state.signed = await api('GET', `/checkin/sessions/${encodeURIComponent(sessionId)}`);
    state.loadProblem = null;
  } catch (error) {
    if (!(error instanceof Problem)) throw error;
    state.loadProblem = error;
  }
}

startPage(async () => {
  await paymentConfig();
  if (!sessionId) return renderFind();
  if (!state.signed && !state.loadProblem) await load();
  if (state.loadProblem) {
    setTitle(t('checkin.title'));
    return show(
      h('h1', {}, t('checkin.cannotOpen')),
      h('p', { role: 'alert' }, problemMessage(state.loadProblem)),
      h('a', { href: '/checkin', class: 'button secondary' }, t('checkin.findAgain')),
    );
  }
  await loadHotelName();
  renderSession();
});
