import { DynamicModule, Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import type { AppConfig } from './config/app-config';
import { ConfigModule } from './config/config.module';
import { dataSourceOptions } from './database/data-source';
import { ApprovalsModule } from './modules/approvals/approvals.module';
import { AssessmentsModule } from './modules/assessments/assessments.module';
import { CdsHooksModule } from './modules/cds-hooks/cds-hooks.module';
import { FhirModule } from './modules/fhir';
import { AuthModule } from './modules/auth/auth.module';
import { HealthController } from './modules/health/health.controller';
import { ParametersModule } from './modules/parameters/parameters.module';
import { RulesModule } from './modules/rules/rules.module';
import { ImpactPreviewModule } from './modules/impact-preview';
import { PolishModule } from './modules/polish/polish.module';
import { RecordsModule } from './modules/records';
import { MeasuresModule } from './modules/measures';
import { UsersModule } from './modules/users/users.module';

@Module({})
export class AppModule {
  static forRoot(config: AppConfig): DynamicModule {
    if (!config.databaseUrl) throw new Error('databaseUrl must be resolved before the app starts');
    return {
      module: AppModule,
      imports: [
        ConfigModule.forRoot(config),
        TypeOrmModule.forRoot(dataSourceOptions(config.databaseUrl, config.databaseTimeouts)),
        AuthModule.register(config),
        UsersModule,
        ApprovalsModule,
        // feature modules: parameters, rules, assessments, polish (one line each, keep this order)
        ParametersModule,
        RulesModule,
        ImpactPreviewModule,
        AssessmentsModule,
        PolishModule,
        CdsHooksModule,
        FhirModule,
        RecordsModule,
        MeasuresModule,
      ],
      controllers: [HealthController],
    };
  }
}
