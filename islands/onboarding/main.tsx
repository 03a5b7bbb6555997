import { mountIsland } from '../common/mount';
import { initialStateFor, siteConfig } from '../common/initial-state';
import { createOnboardingStore, OnboardingApp } from './App';
import { onboardingApi } from './onboarding';

// The onboarding island: the page printed the profile and where to go afterwards.
mountIsland('onboarding', () => {
  const state = initialStateFor('onboarding') ?? {};
  const leave = (url: string) => window.location.assign(url);
  const store = createOnboardingStore(state.profile ?? null, { api: onboardingApi, navigate: leave });
  return <OnboardingApp store={store} next={state.next ?? '/accounts/dashboard/'} flags={siteConfig().flags} facebookPageUrl={state.facebookPageUrl ?? null} siteName={siteConfig().name || undefined} leave={leave} />;
});
