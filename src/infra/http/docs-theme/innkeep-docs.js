// Innkeep's reference page (/docs): names what Swagger UI renders unnamed, and lets the keyboard
// reach its scrolling examples (axe: select-name, button-name, scrollable-region-focusable). Swagger UI renders
// after load and again on every expand, so this runs on every change of the page.
new MutationObserver(() => {
  const servers = document.getElementById('servers');
  if (servers && !servers.hasAttribute('aria-label')) servers.setAttribute('aria-label', 'Server');
  for (const block of document.querySelectorAll('.swagger-ui pre:not([tabindex])')) {
    block.setAttribute('tabindex', '0');
  }
  // A schema's expand/collapse arrow holds only an icon.
  for (const button of document.querySelectorAll('.json-schema-2020-12-accordion:not([aria-label])')) {
    if (!button.textContent.trim()) button.setAttribute('aria-label', 'Show or hide this schema');
  }
}).observe(document.documentElement, { childList: true, subtree: true });
