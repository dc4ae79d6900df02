// Staff accounts at the desk (API.md 12), for owners and managers (scope staff:write): the list,
// inviting a person with a role and hotels, changing a person's role and hotels, disabling and
// enabling. The API refuses what the caller may not grant; the desk shows its answer.
import { field, h } from '../shared/dom.js';
import { busy, problemMessage, showProblem } from '../shared/forms.js';
import { date, t } from '../shared/i18n.js';
import { show } from '../shared/layout.js';
import { operator } from './desk-api.js';

const ROLES = ['owner', 'manager', 'front_desk', 'accountant'];

const staff = { list: null, problem: null, notice: null };

/** Draws the staff screen inside the desk's frame, reading the list when it is not yet read. */
export async function renderStaff(ctx) {
  if (staff.list === null && !staff.problem) await load(ctx);
  const alert = staff.problem
    ? h('div', { class: 'form-alert', role: 'alert' }, problemMessage(staff.problem))
    : null;
  const notice = staff.notice ? h('p', { class: 'notice', role: 'status' }, staff.notice) : null;
  show(
    ...ctx.frame(
      h('h1', {}, t('staffAdmin.heading')),
      alert,
      notice,
      h(
        'section',
        { 'aria-labelledby': 'staff-list-heading' },
        h('h2', { id: 'staff-list-heading' }, t('staffAdmin.people', { count: staff.list?.length ?? 0 })),
        staff.list ? peopleTable(ctx) : null,
      ),
      inviteForm(ctx),
    ),
  );
}

/** Forgets what was read (another key or person signed in). */
export function resetStaff() {
  Object.assign(staff, { list: null, problem: null, notice: null });
}

async function load(ctx) {
  try {
    const { body } = await operator('GET', '/staff');
    staff.list = body.data;
    staff.problem = null;
  } catch (problem) {
    if (ctx.signedOut(problem)) return;
    staff.problem = problem;
  }
}

const roleName = (role) => t(`staffAdmin.role.${role}`);

function hotelNames(ctx, hotelIds) {
  if (hotelIds === null) return t('staffAdmin.allHotels');
  return hotelIds.map((id) => ctx.hotels.find((x) => x.id === id)?.name ?? id).join(', ');
}

/**
 * Whether the signed-in person may give `role` (API.md 12): only an owner gives the owner role.
 * With an operator key (no person) every role is offered; the API decides, and the desk shows it.
 */
const mayGive = (ctx, role) => role !== 'owner' || !ctx.person || ctx.person.user.role === 'owner';

/** The role choice: the roles the caller may give, and the person's own; `current` selected. */
function roleSelect(ctx, name, current) {
  return h(
    'select',
    { name, 'data-path': '/role' },
    ROLES.filter((r) => r === current || mayGive(ctx, r)).map((r) =>
      h('option', { value: r, selected: r === current }, roleName(r)),
    ),
  );
}

/**
 * The hotels choice: "every hotel", or some of the hotels the caller sees (a list of checkboxes in
 * a fieldset). Answers the element and a reader of the choice (`null` = every hotel).
 */
function hotelsChoice(ctx, legend, current) {
  const all = h('input', { type: 'checkbox', name: 'allHotels', checked: current === null });
  const boxes = ctx.hotels.map((x) =>
    h('input', {
      type: 'checkbox',
      name: 'hotel',
      value: x.id,
      checked: current?.includes(x.id),
    }),
  );
  const element = h(
    'fieldset',
    { class: 'staff-hotels', 'data-path': '/hotelIds' },
    h('legend', {}, legend),
    h('label', {}, all, ' ', t('staffAdmin.allHotels')),
    ctx.hotels.map((x, i) => h('label', {}, boxes[i], ' ', x.name)),
  );
  const read = () => (all.checked ? null : boxes.filter((b) => b.checked).map((b) => b.value));
  return { element, read };
}

function peopleTable(ctx) {
  if (staff.list.length === 0) return h('p', { class: 'muted' }, t('staffAdmin.none'));
  return h(
    'ul',
    { class: 'desk-list staff-list' },
    staff.list.map((person) => h('li', { 'data-staff': person.id }, personCard(ctx, person))),
  );
}

function personCard(ctx, person) {
  const hotels = hotelsChoice(ctx, t('staffAdmin.hotels'), person.hotelIds);
  const role = roleSelect(ctx, 'role', person.role);
  // Nobody disables their own account from here (they would sign themselves out for good).
  const self = ctx.person?.user.id === person.id;
  const form = h(
    'form',
    {
      class: 'stack',
      novalidate: true,
      'aria-label': t('staffAdmin.changeOf', { name: person.name }),
      onsubmit: (event) => {
        event.preventDefault();
        change(ctx, form, person, { role: role.value, hotelIds: hotels.read() });
      },
    },
    h('div', { class: 'row' }, field(t('staffAdmin.role'), role), hotels.element),
    h(
      'div',
      { class: 'buttons' },
      h('button', { type: 'submit', class: 'secondary' }, t('staffAdmin.save')),
      self
        ? null
        : person.status === 'disabled'
          ? h(
              'button',
              {
                type: 'button',
                class: 'secondary',
                onclick: () => change(ctx, form, person, { status: 'active' }),
              },
              t('staffAdmin.enable'),
            )
          : h(
              'button',
              {
                type: 'button',
                class: 'danger',
                onclick: () => change(ctx, form, person, { status: 'disabled' }),
              },
              t('staffAdmin.disable'),
            ),
    ),
  );
  return h(
    'div',
    { class: 'card stack' },
    h(
      'p',
      {},
      h('strong', {}, person.name),
      ' ',
      h('span', { class: `badge badge-staff-${person.status}` }, t(`staffAdmin.status.${person.status}`)),
    ),
    h(
      'p',
      { class: 'muted' },
      [
        person.email,
        roleName(person.role),
        hotelNames(ctx, person.hotelIds),
        date(person.createdAt.slice(0, 10)),
      ].join(' · '),
    ),
    form,
  );
}

async function change(ctx, form, person, body) {
  try {
    const { body: changed } = await busy(form, () =>
      operator('PATCH', `/staff/${encodeURIComponent(person.id)}`, { body }),
    );
    staff.list = staff.list.map((p) => (p.id === changed.id ? changed : p));
    staff.notice = t('staffAdmin.saved', { name: changed.name });
    await renderStaff(ctx);
  } catch (problem) {
    if (ctx.signedOut(problem)) return;
    showProblem(form, problem);
  }
}

function inviteForm(ctx) {
  const email = h('input', {
    type: 'email',
    name: 'email',
    autocomplete: 'off',
    required: true,
    maxlength: 254,
  });
  const name = h('input', {
    type: 'text',
    name: 'name',
    autocomplete: 'off',
    required: true,
    maxlength: 100,
  });
  const role = roleSelect(ctx, 'role', 'front_desk');
  const hotels = hotelsChoice(ctx, t('staffAdmin.hotels'), ctx.hotels.length > 0 ? [ctx.hotels[0].id] : null);
  const form = h(
    'form',
    {
      class: 'card stack',
      novalidate: true,
      'aria-labelledby': 'invite-heading',
      onsubmit: async (event) => {
        event.preventDefault();
        const chosen = hotels.read();
        const body = {
          email: email.value.trim(),
          name: name.value.trim(),
          role: role.value,
          ...(chosen === null ? {} : { hotelIds: chosen }),
        };
        try {
          const { body: invited } = await busy(form, () => operator('POST', '/staff', { body }));
          staff.list = [...(staff.list ?? []), invited];
          staff.notice = t('staffAdmin.invited', { email: invited.email });
          await renderStaff(ctx);
        } catch (problem) {
          if (ctx.signedOut(problem)) return;
          showProblem(form, problem);
        }
      },
    },
    h('h2', { id: 'invite-heading' }, t('staffAdmin.invite.heading')),
    h(
      'div',
      { class: 'row' },
      field(t('staffAdmin.email'), email, { path: '/email' }),
      field(t('staffAdmin.name'), name, { path: '/name' }),
      field(t('staffAdmin.role'), role),
    ),
    hotels.element,
    h('p', { class: 'hint' }, t('staffAdmin.invite.hint')),
    h('button', { type: 'submit', class: 'primary' }, t('staffAdmin.invite.submit')),
  );
  return form;
}
