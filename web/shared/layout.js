import { h, replaceContent, restore, snapshot } from './dom.js';
import { initialLanguage, LANGUAGES, language, setLanguage, t } from './i18n.js';

/**
 * Starts a page: loads its language, draws the language switch, and calls `render()` now and
 * after every switch. Field values survive a switch (the form is drawn again in the new language).
 */
export async function startPage(render) {
  await setLanguage(initialLanguage());
  const main = document.getElementById('main');
  const draw = async () => {
    const values = snapshot(main);
    document.querySelector('.brand').textContent = t('brand');
    document.querySelector('.skip-link').textContent = t('skipToContent');
    drawSwitch();
    await render();
    restore(main, values);
  };
  const drawSwitch = () => {
    const slot = document.getElementById('language-switch');
    const select = h(
      'select',
      {
        id: 'language',
        onchange: async () => {
          await setLanguage(select.value, { remember: true });
          await draw();
          document.getElementById('language')?.focus();
        },
      },
      LANGUAGES.map((lang) =>
        h('option', { value: lang, lang, selected: lang === language() }, t(`language.${lang}`)),
      ),
    );
    replaceContent(
      slot,
      h('label', { for: 'language', class: 'visually-hidden' }, t('language.label')),
      select,
    );
  };
  await draw();
}

/** Replaces the page content and moves focus to its heading, so screen readers follow each screen. */
export function show(...children) {
  const main = document.getElementById('main');
  replaceContent(main, ...children);
  const heading = main.querySelector('h1, h2');
  if (heading) {
    heading.setAttribute('tabindex', '-1');
    heading.focus({ preventScroll: false });
  }
}

export function setTitle(text) {
  document.title = `${text} · ${t('brand')}`;
}
