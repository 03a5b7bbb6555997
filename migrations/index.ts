import type { Knex } from 'knex';
import * as extensions from './20261121000100_extensions';
import * as profilesAndSessions from './20261121000200_profiles_and_sessions';
import * as places from './20261121000300_places';
import * as articlesAndBestOf from './20261121000400_articles_and_best_of';
import * as events from './20261121000500_events';
import * as contestsAndVideos from './20261121000600_contests_and_videos';
import * as photos from './20261121000700_photos';
import * as memberSaves from './20261121000800_member_saves';
import * as newslettersAndContact from './20261121000900_newsletters_and_contact';
import * as searchIndexes from './20261122000400_search_indexes';
import * as readPathIndexes from './20261122000700_read_path_indexes';
import * as rateLimits from './20261123000100_rate_limits';
import * as usedCaptchaKeys from './20261124000100_used_captcha_keys';
import * as listingRatingRank from './20261124000200_listing_rating_rank';
import * as eventImageSource from './20261124000300_event_image_source';
import * as headlineWords from './20261124000500_headline_words';
import * as photoChallenges from './20261124001500_photo_challenges';
import * as photoChallengeEntries from './20261124001600_photo_challenge_entries';
import * as staffAuditLog from './20261125000050_staff_audit_log';
import * as contactMessageHandled from './20261125000100_contact_message_handled';
import * as contestEntries from './20261125000200_contest_entries';
import * as loginHistory from './20261125000300_login_history';
import * as accountDeletions from './20261125000400_account_deletions';
import * as apiReadIndexes from './20261125000600_api_read_indexes';
import * as newsletterSends from './20261125000700_newsletter_sends';
import * as houseAds from './20261126000100_house_ads';
import * as listingAccessibility from './20261127000100_listing_accessibility';
import * as bestOfChanges from './20261127000200_best_of_changes';
import * as calendarFeeds from './20261127000300_calendar_feeds';
import * as searchRumIndexes from './20261128000100_search_rum_indexes';
import * as headlineWordsByDate from './20261128000200_headline_words_by_date';
import * as newsroom from './20261129000100_newsroom';
import * as jobQueue from './20261129000200_job_queue';
import * as placeHours from './20261129000500_place_hours';
import * as placesDesk from './20261130000100_places_desk';
import * as placeReviews from './20261130000300_place_reviews';
import * as placeSuggestions from './20261130000400_place_suggestions';
import * as contestOdds from './20261130000500_contest_odds';
import * as oldSlugs from './20261130000700_old_slugs';
import * as placeReviewDoc from './20261201000100_place_review_doc';
import * as searchPlannedRows from './20261201000900_search_planned_rows';
import * as searchSimilarRows from './20261202000100_search_similar_rows';
import * as listingsTypeOpenCount from './20261202000200_listings_type_open_count';
import * as sharedStoryDocuments from './20261203000100_shared_story_documents';

// The migrations in order, imported statically so that the same list runs under tsx, under
// jest and as compiled JavaScript. Forward-only: add a new file, never edit a landed one.
export const migrations: Array<[string, { up(knex: Knex): Promise<void> }]> = [
  ['20261121000100_extensions', extensions],
  ['20261121000200_profiles_and_sessions', profilesAndSessions],
  ['20261121000300_places', places],
  ['20261121000400_articles_and_best_of', articlesAndBestOf],
  ['20261121000500_events', events],
  ['20261121000600_contests_and_videos', contestsAndVideos],
  ['20261121000700_photos', photos],
  ['20261121000800_member_saves', memberSaves],
  ['20261121000900_newsletters_and_contact', newslettersAndContact],
  ['20261122000400_search_indexes', searchIndexes],
  ['20261122000700_read_path_indexes', readPathIndexes],
  ['20261123000100_rate_limits', rateLimits],
  ['20261124000100_used_captcha_keys', usedCaptchaKeys],
  ['20261124000200_listing_rating_rank', listingRatingRank],
  ['20261124000300_event_image_source', eventImageSource],
  ['20261124000500_headline_words', headlineWords],
  ['20261124001500_photo_challenges', photoChallenges],
  ['20261124001600_photo_challenge_entries', photoChallengeEntries],
  ['20261125000050_staff_audit_log', staffAuditLog],
  ['20261125000100_contact_message_handled', contactMessageHandled],
  ['20261125000200_contest_entries', contestEntries],
  ['20261125000300_login_history', loginHistory],
  ['20261125000400_account_deletions', accountDeletions],
  ['20261125000600_api_read_indexes', apiReadIndexes],
  ['20261125000700_newsletter_sends', newsletterSends],
  ['20261126000100_house_ads', houseAds],
  ['20261127000100_listing_accessibility', listingAccessibility],
  ['20261127000200_best_of_changes', bestOfChanges],
  ['20261127000300_calendar_feeds', calendarFeeds],
  ['20261128000100_search_rum_indexes', searchRumIndexes],
  ['20261128000200_headline_words_by_date', headlineWordsByDate],
  ['20261129000100_newsroom', newsroom],
  ['20261129000200_job_queue', jobQueue],
  ['20261129000500_place_hours', placeHours],
  ['20261130000100_places_desk', placesDesk],
  ['20261130000300_place_reviews', placeReviews],
  ['20261130000400_place_suggestions', placeSuggestions],
  ['20261130000500_contest_odds', contestOdds],
  ['20261130000700_old_slugs', oldSlugs],
  ['20261201000100_place_review_doc', placeReviewDoc],
  ['20261201000900_search_planned_rows', searchPlannedRows],
  ['20261202000100_search_similar_rows', searchSimilarRows],
  ['20261202000200_listings_type_open_count', listingsTypeOpenCount],
  ['20261203000100_shared_story_documents', sharedStoryDocuments],
];
