import { setUpPlacePin } from './pin';
import './place-pin.css';

// The places desk's add/edit form's map pin (pin.ts). Printed by the form as
// {% call island('place-pin') %}…{% endcall %} inside the <form>, after its address, latitude
// and longitude inputs' fields (server/apps/places-desk/pages.ts adds the island).

function mount(): void {
  document.querySelectorAll<HTMLElement>('[data-island="place-pin"]').forEach((el) => {
    if (el.dataset.mounted) return;
    el.dataset.mounted = 'true';
    setUpPlacePin(el);
  });
}

if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', mount, { once: true });
else mount();
