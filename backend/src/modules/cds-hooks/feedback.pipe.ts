import { Injectable, type PipeTransform } from '@nestjs/common';
import { checkedBody, type CheckedBody } from './checked-body';
import { parseFeedback, type FeedbackItem } from './feedback';

/** The body of `POST /api/cds-services/:id/feedback` (the contract's CdsFeedbackRequestJson), checked item by item: 400 invalid_feedback. */
@Injectable()
export class FeedbackPipe implements PipeTransform<unknown, CheckedBody<FeedbackItem[]>> {
  transform(body: unknown): CheckedBody<FeedbackItem[]> {
    return checkedBody(() => parseFeedback(body));
  }
}
