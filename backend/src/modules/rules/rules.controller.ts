import { Body, Controller, Delete, Get, HttpCode, Param, Post, Put, Query, UseInterceptors } from '@nestjs/common';
import { ApiBearerAuth, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { RuleJson, TestCaseJson, RuleTestResultJson } from '@cds/contracts';
import { ADMIN_ROLES } from '@cds/contracts';
import type { ListQuery, Page } from '../../common/pagination';
import { ListQueryPipe } from '../../common/list-query.pipe';
import { ParseIdPipe } from '../../common/uuid.pipe';
import { CurrentUser, Roles, type AuthUser } from '../../common/auth-user';
import { CreateRuleDto, CreateTestCaseDto, TestRuleDto, UpdateRuleDto, UpdateTestCaseDto } from './rules.dto';
import { RULE_FILTERS, RULE_SORTABLE, RulesService } from './rules.service';
import { ContractResponse } from '../../common/contract-response';
import { ReadOnlyEchoInterceptor } from '../../common/read-only-echo.interceptor';

@ApiTags('rules')
@ApiBearerAuth()
@Roles(...ADMIN_ROLES)
@Controller('rules')
@UseInterceptors(ReadOnlyEchoInterceptor)
export class RulesController {
  constructor(private readonly rules: RulesService) {}

  @ContractResponse('RuleJson', { array: true })
  @Get()
  @ApiOperation({ summary: 'Rules by priority ascending (simple-rest; filter {rule_set_id, is_active (default true; "all"), q, id})' })
  list(
    @Query(new ListQueryPipe({ sortable: RULE_SORTABLE, defaultSort: { field: 'priority', order: 'ASC' }, filters: RULE_FILTERS }))
    query: ListQuery,
  ): Promise<Page<RuleJson>> {
    return this.rules.list(query);
  }

  @ContractResponse('RuleJson')
  @Get(':id')
  get(@Param('id', ParseIdPipe) id: string): Promise<RuleJson> {
    return this.rules.get(id);
  }

  @ContractResponse('RuleJson')
  @Post()
  @ApiOperation({
    summary: 'Create a rule { rule_set_id, name, description?, priority?, conditions?, actions? }; conditions are stored normalised',
  })
  create(@CurrentUser() actor: AuthUser, @Body() body: CreateRuleDto): Promise<RuleJson> {
    return this.rules.create(actor, body);
  }

  @ContractResponse('RuleJson')
  @Put(':id')
  @ApiOperation({ summary: 'Update the supplied fields' })
  update(@Param('id', ParseIdPipe) id: string, @Body() body: UpdateRuleDto): Promise<RuleJson> {
    return this.rules.update(id, body);
  }

  @ContractResponse('RuleJson')
  @Delete(':id')
  @ApiOperation({ summary: 'Soft delete (is_active=false); returns the rule' })
  remove(@Param('id', ParseIdPipe) id: string): Promise<RuleJson> {
    return this.rules.remove(id);
  }

  @ContractResponse('RuleJson')
  @Post(':id/clone')
  @ApiOperation({ summary: 'Copy the rule in its rule set as "{name} (copy)"' })
  clone(@CurrentUser() actor: AuthUser, @Param('id', ParseIdPipe) id: string): Promise<RuleJson> {
    return this.rules.clone(actor, id);
  }

  @ContractResponse('RuleTestResultJson')
  @Post(':id/test')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Evaluate the saved rule against { answers (by parameter id), reference_date? } → { outcome, matched, trace, actions }',
  })
  test(@Param('id', ParseIdPipe) id: string, @Body() body: TestRuleDto): Promise<RuleTestResultJson> {
    return this.rules.test(id, body);
  }

  @ContractResponse('TestCaseJson', { array: true })
  @Get(':id/test-cases')
  @ApiOperation({ summary: "The rule's saved test cases, each run against the rule as it is now (actual_outcome, passed)" })
  listTestCases(@Param('id', ParseIdPipe) id: string): Promise<TestCaseJson[]> {
    return this.rules.listTestCases(id);
  }

  @ContractResponse('TestCaseJson')
  @Post(':id/test-cases')
  @ApiOperation({ summary: 'Save a test case { name, answers, expected_outcome: true|false|"unknown", reference_date? }' })
  createTestCase(
    @CurrentUser() actor: AuthUser,
    @Param('id', ParseIdPipe) id: string,
    @Body() body: CreateTestCaseDto,
  ): Promise<TestCaseJson> {
    return this.rules.createTestCase(actor, id, body);
  }

  @ContractResponse('TestCaseJson')
  @Put(':id/test-cases/:caseId')
  updateTestCase(
    @Param('id', ParseIdPipe) id: string,
    @Param('caseId', ParseIdPipe) caseId: string,
    @Body() body: UpdateTestCaseDto,
  ): Promise<TestCaseJson> {
    return this.rules.updateTestCase(id, caseId, body);
  }

  @ContractResponse('TestCaseJson')
  @Delete(':id/test-cases/:caseId')
  removeTestCase(@Param('id', ParseIdPipe) id: string, @Param('caseId', ParseIdPipe) caseId: string): Promise<TestCaseJson> {
    return this.rules.removeTestCase(id, caseId);
  }
}
