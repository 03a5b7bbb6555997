import { mountIsland } from '../common/mount';
import { initialStateFor, siteConfig } from '../common/initial-state';

// The navbar island. The accounts work replaces this with the full Redux/saga island; until
// then it marks the server-rendered nav as enhanced so styles can tell the two apart.
interface NavbarState {
  user: { id: number; full_name: string; email: string } | null;
}

mountIsland('navbar', (el) => {
  const state = initialStateFor<NavbarState>('navbar');
  el.classList.add('is-enhanced');
  const html = el.innerHTML;
  return <div data-site={siteConfig().name} data-member={state?.user ? 'yes' : 'no'} dangerouslySetInnerHTML={{ __html: html }} />;
});
