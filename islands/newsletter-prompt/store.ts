import { createIslandStore } from '../common/store';
import type { PromptNewsletterType } from '../../shared/newsletter-prompt';
import { initialPromptState, promptSlice, type PromptState } from './slices/prompt';
import { newsletterPromptSaga, type NewsletterPromptContext } from './sagas';

export interface NewsletterPromptRootState {
  prompt: PromptState;
}

export function createNewsletterPromptStore(type: PromptNewsletterType, context: NewsletterPromptContext) {
  return createIslandStore<NewsletterPromptRootState>({
    reducer: { prompt: promptSlice.reducer },
    saga: newsletterPromptSaga,
    preloadedState: { prompt: initialPromptState(type) },
    context: { ...context },
  });
}

export type NewsletterPromptStore = ReturnType<typeof createNewsletterPromptStore>;
