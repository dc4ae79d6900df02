// The plain pages (not found): the server wrote the message; this redraws it in a switched language.
import { h } from './dom.js';
import { t } from './i18n.js';
import { setTitle, show, startPage } from './layout.js';

startPage(() => {
  setTitle(t('notFound.title'));
  show(h('h1', {}, t('notFound.title')), h('p', {}, t('notFound.hotel')));
});
