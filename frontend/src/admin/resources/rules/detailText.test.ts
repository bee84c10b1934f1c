import { describe, expect, it } from 'vitest';
import { detailText } from './PublishDialog';

describe('a rule change as the publish dialog words it', () => {
  it('names a severity ("Medium", not "medium"), also where it leads an action', () => {
    expect(detailText('severity', 'medium')).toBe('Medium');
    expect(detailText('actions', 'critical: Assess for end-organ damage now; low: Recheck in 4 weeks')).toBe(
      'Critical: Assess for end-organ damage now; Low: Recheck in 4 weeks',
    );
    expect(detailText('conditions', 'Systolic BP ≥ 180 mmHg')).toBe('Systolic BP ≥ 180 mmHg');
  });
});
