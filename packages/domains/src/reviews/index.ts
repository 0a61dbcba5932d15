export { jsonLdScript, productMarkup } from "./markup.ts";
export { addReview, listReviews, removeReview, reviewInput } from "./reviews.ts";
