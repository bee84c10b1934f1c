import { DynamicModule, Module } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import { JwtModule } from '@nestjs/jwt';
import { PassportModule } from '@nestjs/passport';
import type { AppConfig } from '../../config/app-config';
import { UsersModule } from '../users';
import { AuthController } from './auth.controller';
import { InvitationsController } from './invitations.controller';
import { InvitationsService } from './invitations.service';
import { AuthService } from './auth.service';
import { GoogleStrategy } from './google.strategy';
import { GoogleAuthGuard, JwtAuthGuard, RolesGuard } from './guards';
import { JwtStrategy } from './jwt.strategy';
import { TokensService } from './tokens.service';
import { AuthRateLimiter } from './rate-limiter';
import { SessionCache } from './session-cache';
import { AccountsRepository } from './accounts.repository';
import { InvitationsRepository } from './invitations.repository';
import { SessionsRepository } from './sessions.repository';

@Module({})
export class AuthModule {
  static register(config: AppConfig): DynamicModule {
    return {
      module: AuthModule,
      imports: [PassportModule, UsersModule, JwtModule.register({ secret: config.jwtSecret, signOptions: { algorithm: 'HS256' } })],
      controllers: [AuthController, InvitationsController],
      providers: [
        AuthService,
        AuthRateLimiter,
        AccountsRepository,
        InvitationsRepository,
        SessionsRepository,
        TokensService,
        InvitationsService,
        SessionCache,
        JwtStrategy,
        GoogleAuthGuard,
        ...(config.google ? [GoogleStrategy] : []),
        { provide: APP_GUARD, useClass: JwtAuthGuard },
        { provide: APP_GUARD, useClass: RolesGuard },
      ],
      exports: [AuthService, TokensService],
    };
  }
}
