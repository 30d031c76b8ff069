import type { Comment, ErrorCode } from './generated/resources.js';

/** A comment on a procurement object. */
export type ApprovalComment = Comment;
/** An error code the approvals service lists. */
export type ApprovalsErrorCode = ErrorCode;
