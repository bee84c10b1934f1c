import 'reflect-metadata';
import { plainToInstance } from 'class-transformer';
import { validateSync } from 'class-validator';
import { DomainError } from '../../common/errors';
import { validationPipe } from '../../common/validation';
import { AnswerDto, StartAssessmentDto, answerAcceptedAsIs, startAcceptedAsIs } from './assessments.dto';

const ID = '3f2b8c1e-9a4d-4e6f-8b2a-1c5d7e9f0a3b';

/** What class-validator says of a body, with the pipe's options: the decorators are the rule the fast check must keep. */
function decoratorsAccept(body: object, dtoClass: new () => object = AnswerDto): boolean {
  const dto = plainToInstance(dtoClass, body);
  return validateSync(dto, { whitelist: true, forbidNonWhitelisted: true, forbidUnknownValues: true }).length === 0;
}

const bodies: Record<string, unknown>[] = [
  { parameter_id: ID, value: 6.5 },
  { parameter_id: ID, value: 'unknown' },
  { parameter_id: ID, value: true },
  { parameter_id: ID, value: false },
  { parameter_id: ID, value: 0 },
  { parameter_id: ID, value: { type: 'range', min: 4.5, max: null, min_inclusive: false, max_inclusive: false } },
  { parameter_id: ID, value: 6.5, unit: 'mmol/L', step: 2 },
  { parameter_id: ID, value: 6.5, confirmed_from: 'record' },
  { parameter_id: ID, value: 6.5, confirmed_from: 'ehr', step: 1 },
  { parameter_id: ID, value: 6.5, observed_at: '2026-11-02' },
  // Refused by the decorators: the fast check must send every one of these on to them.
  { parameter_id: ID },
  { parameter_id: ID, value: null },
  { value: 6.5 },
  { parameter_id: 'TSH', value: 6.5 },
  { parameter_id: ID.toUpperCase().replace(/-/g, ''), value: 6.5 },
  { parameter_id: ID, value: 6.5, extra: 1 },
  { parameter_id: ID, value: 6.5, unit: 42 },
  { parameter_id: ID, value: 6.5, unit: 'x'.repeat(41) },
  { parameter_id: ID, value: 6.5, unit: null },
  { parameter_id: ID, value: 6.5, step: 0 },
  { parameter_id: ID, value: 6.5, step: 1.5 },
  { parameter_id: ID, value: 6.5, step: '2' },
  { parameter_id: ID, value: 6.5, step: Infinity },
  { parameter_id: ID, value: 6.5, confirmed_from: 'lab' },
  { parameter_id: ID, value: 6.5, observed_at: 'yesterday' },
  { parameter_id: 42, value: 6.5 },
];

describe('the everyday answer body is accepted without class-validator only when the decorators would accept it', () => {
  it('never accepts a body the decorators refuse, and accepts the everyday answers', () => {
    for (const body of bodies)
      if (answerAcceptedAsIs(body)) expect({ body, accepted: decoratorsAccept(body) }).toEqual({ body, accepted: true });
    expect(bodies.filter((b) => answerAcceptedAsIs(b))).toHaveLength(9); // all the valid ones but the observation date
  });

  it('hands the handler an AnswerDto with the fields as sent, and refuses the rest with the decorators’ messages', async () => {
    const metadata = { type: 'body' as const, metatype: AnswerDto, data: '' };
    const band = { type: 'range', min: 4.5, max: null, min_inclusive: false, max_inclusive: false };
    const dto = (await validationPipe.transform({ parameter_id: ID, value: band, step: 3 }, metadata)) as AnswerDto;
    expect(dto).toBeInstanceOf(AnswerDto);
    expect({ ...dto }).toEqual({ parameter_id: ID, value: band, step: 3 });
    const refused = await validationPipe.transform({ parameter_id: ID, value: null, color: 'red' }, metadata).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(DomainError);
    expect((refused as DomainError).details).toEqual([
      { field: 'color', message: "Unknown field 'color'" },
      { field: 'value', message: 'value is required' }, // IsDefined's and NotEquals(null)'s, as before this check
      { field: 'value', message: 'value is required' },
    ]);
  });
});

describe('the everyday start body is accepted without class-validator only when the decorators would accept it', () => {
  const starts: Record<string, unknown>[] = [
    {},
    { mode: 'clinical' },
    { mode: 'clinical', record_context: ID },
    // Refused by the decorators.
    { mode: 'chat' },
    { mode: null },
    { mode: 'clinical', extra: 1 },
    { record_context: 'not-a-context' },
    { mode: 'Clinical' },
  ];

  it('never accepts a body the decorators refuse, and accepts the everyday starts', () => {
    for (const body of starts)
      if (startAcceptedAsIs(body)) expect({ body, accepted: decoratorsAccept(body, StartAssessmentDto) }).toEqual({ body, accepted: true });
    expect(starts.filter((b) => startAcceptedAsIs(b))).toEqual([{}, { mode: 'clinical' }]);
  });

  it('hands the handler a StartAssessmentDto, and refuses the rest with the decorators’ messages', async () => {
    const metadata = { type: 'body' as const, metatype: StartAssessmentDto, data: '' };
    const dto = (await validationPipe.transform({ mode: 'clinical' }, metadata)) as StartAssessmentDto;
    expect(dto).toBeInstanceOf(StartAssessmentDto);
    expect({ ...dto }).toEqual({ mode: 'clinical' });
    const refused = await validationPipe.transform({ mode: 'chat' }, metadata).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(DomainError);
    expect((refused as DomainError).details).toEqual([{ field: 'mode', message: "mode must be 'clinical'" }]);
  });
});
