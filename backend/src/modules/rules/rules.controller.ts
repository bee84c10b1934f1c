import { Body, Controller, Delete, Get, HttpCode, Param, Post, Put, Query } from '@nestjs/common';
import { ApiBearerAuth, ApiOperation, ApiTags } from '@nestjs/swagger';
import { parseListQuery } from '../../common/pagination';
import { ParseIdPipe } from '../../common/uuid.pipe';
import { CurrentUser, Roles, type AuthUser } from '../auth/auth-user';
import { CreateRuleDto, CreateTestCaseDto, TestRuleDto, UpdateRuleDto, UpdateTestCaseDto } from './rules.dto';
import { RULE_SORTABLE, RulesService } from './rules.service';

@ApiTags('rules') @ApiBearerAuth()
@Roles('admin', 'super_admin')
@Controller('rules')
export class RulesController {
  constructor(private readonly rules: RulesService) {}

  @Get()
  @ApiOperation({ summary: 'Rules by priority ascending (simple-rest; filter {rule_set_id, is_active (default true; "all"), q, id})' })
  list(@Query() query: Record<string, unknown>) {
    return this.rules.list(parseListQuery(query, { sortable: RULE_SORTABLE, defaultSort: { field: 'priority', order: 'ASC' } }));
  }

  @Get(':id')
  get(@Param('id', ParseIdPipe) id: string) {
    return this.rules.get(id);
  }

  @Post()
  @ApiOperation({ summary: 'Create a rule { rule_set_id, name, description?, priority?, conditions?, actions? }; conditions are stored normalised' })
  create(@CurrentUser() actor: AuthUser, @Body() body: CreateRuleDto) {
    return this.rules.create(actor, body);
  }

  @Put(':id')
  @ApiOperation({ summary: 'Update the supplied fields' })
  update(@Param('id', ParseIdPipe) id: string, @Body() body: UpdateRuleDto) {
    return this.rules.update(id, body);
  }

  @Delete(':id')
  @ApiOperation({ summary: 'Soft delete (is_active=false); returns the rule' })
  remove(@Param('id', ParseIdPipe) id: string) {
    return this.rules.remove(id);
  }

  @Post(':id/clone')
  @ApiOperation({ summary: 'Copy the rule in its rule set as "{name} (copy)"' })
  clone(@CurrentUser() actor: AuthUser, @Param('id', ParseIdPipe) id: string) {
    return this.rules.clone(actor, id);
  }

  @Post(':id/test') @HttpCode(200)
  @ApiOperation({ summary: 'Evaluate the saved rule against { answers (by parameter id), reference_date? } → { outcome, matched, trace, actions }' })
  test(@Param('id', ParseIdPipe) id: string, @Body() body: TestRuleDto) {
    return this.rules.test(id, body);
  }

  @Get(':id/test-cases')
  @ApiOperation({ summary: "The rule's saved test cases, each run against the rule as it is now (actual_outcome, passed)" })
  listTestCases(@Param('id', ParseIdPipe) id: string) {
    return this.rules.listTestCases(id);
  }

  @Post(':id/test-cases')
  @ApiOperation({ summary: 'Save a test case { name, answers, expected_outcome: true|false|"unknown", reference_date? }' })
  createTestCase(@CurrentUser() actor: AuthUser, @Param('id', ParseIdPipe) id: string, @Body() body: CreateTestCaseDto) {
    return this.rules.createTestCase(actor, id, body);
  }

  @Put(':id/test-cases/:caseId')
  updateTestCase(@Param('id', ParseIdPipe) id: string, @Param('caseId', ParseIdPipe) caseId: string, @Body() body: UpdateTestCaseDto) {
    return this.rules.updateTestCase(id, caseId, body);
  }

  @Delete(':id/test-cases/:caseId')
  removeTestCase(@Param('id', ParseIdPipe) id: string, @Param('caseId', ParseIdPipe) caseId: string) {
    return this.rules.removeTestCase(id, caseId);
  }
}
