/** Texts of the user management screen; spec doc 3 §8 where it gives them. */
export const ADMIN_USERS_MESSAGES = {
  loadFailed: 'Failed to load users',
  detailsFailed: 'Failed to update user details.',
  refreshFailed: 'Error refreshing data. Please reload the page.',
  loginAsFailed: 'Failed to login as user',
  roleFailed: 'Failed to change the role',
  accessFailed: 'Failed to change access',
  deleteFailed: 'Failed to delete user',
  empty: 'No users found',
  auditFailed: 'Failed to load activity',
  auditEmpty: 'No actions taken while signed in as a user',
  resetLinkFailed: 'Failed to create reset link',
} as const;

/** Spec doc 3 §4: after Login As the app moves to the user's dashboard after 1.5 s. */
export const LOGIN_AS_REDIRECT_DELAY = 1500;
/** Typing in the search box asks the server once the typing pauses this long. */
export const SEARCH_DEBOUNCE = 300;

/** Rows a page of the Login As activity table. */
export const AUDIT_PAGE_SIZE = 25;
