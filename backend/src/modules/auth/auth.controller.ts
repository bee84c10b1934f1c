import { Body, Controller, Get, HttpCode, Post, Put, Query, Req, Res, UseGuards, UseInterceptors } from '@nestjs/common';
import { ApiBearerAuth, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { HttpRequest as Request } from '../../http/request';
import { redirect } from '../../http/respond';
import { Inject } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '../../config/app-config';
import { DomainError } from '../../common/errors';
import { UsersService } from '../users';
import { ChangePasswordDto, SignUpDto, TokenDto } from './auth.dto';
import type { SessionJson, UserJson } from '@cds/contracts';
import { AuthService } from './auth.service';
import { CurrentUser, Public, type AuthUser } from '../../common/auth-user';
import { GoogleAuthGuard } from './guards';
import type { LogoutScope } from './tokens.service';
import { ContractResponse } from '../../common/contract-response';
import { ReadOnlyEchoInterceptor } from '../../common/read-only-echo.interceptor';

const SCOPES: LogoutScope[] = ['global', 'local', 'others'];
const badQuery = (field: string, message: string) => new DomainError('validation_failed', message, [{ field, message }]);

@ApiTags('auth')
@Controller('auth')
@UseInterceptors(ReadOnlyEchoInterceptor)
export class AuthController {
  constructor(
    private readonly auth: AuthService,
    private readonly users: UsersService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  @Public()
  @ContractResponse('SessionJson')
  @Post('signup')
  @ApiOperation({ summary: 'Create an account and sign in' })
  signUp(@Body() body: SignUpDto, @Req() req: Request): Promise<SessionJson> {
    return this.auth.signUp({ ...body, ...body.data }, req.ip ?? 'unknown');
  }

  @Public()
  @ContractResponse('SessionJson')
  @Post('token')
  @HttpCode(200)
  @ApiOperation({ summary: 'Sign in with a password (grant_type=password) or rotate a refresh token (grant_type=refresh_token)' })
  token(@Query('grant_type') grantType: string, @Body() body: TokenDto, @Req() req: Request): Promise<SessionJson> {
    if (grantType === 'password') return this.auth.signIn(body, req.ip ?? 'unknown');
    if (grantType === 'refresh_token') return this.auth.refresh(body.refresh_token);
    throw badQuery('grant_type', 'grant_type must be password or refresh_token');
  }

  @Post('logout')
  @HttpCode(204)
  @ApiBearerAuth()
  @ApiOperation({ summary: 'Sign out this session (local), every session (global) or all the others (others)' })
  async logout(@CurrentUser() user: AuthUser, @Query('scope') scope: string = 'global'): Promise<void> {
    if (!SCOPES.includes(scope as LogoutScope)) throw badQuery('scope', 'scope must be global, local or others');
    await this.auth.logout(user, scope as LogoutScope);
  }

  @ContractResponse('UserJson')
  @Get('user')
  @ApiBearerAuth()
  user(@CurrentUser() user: AuthUser): Promise<UserJson> {
    return this.users.ownUserJson(user);
  }

  @ContractResponse('UserJson')
  @Put('user')
  @ApiBearerAuth()
  @ApiOperation({ summary: 'Change the password; every other session is signed out' })
  changePassword(@CurrentUser() user: AuthUser, @Body() body: ChangePasswordDto): Promise<UserJson> {
    return this.auth.changePassword(user, body.current_password, body.password);
  }

  @Public()
  @Get('google')
  @UseGuards(GoogleAuthGuard)
  @ApiOperation({ summary: 'Start Google sign-in (501 oauth_not_configured when not configured)' })
  google(): void {
    // The guard redirects to the provider.
  }

  @Public()
  @Get('google/callback')
  @UseGuards(GoogleAuthGuard)
  googleCallback(@Req() req: Request, @Res() res: unknown): void {
    const result = req.user as SessionJson | { error: string };
    // The session travels in the fragment, which browsers never send to a server.
    const fragment =
      'error' in result
        ? new URLSearchParams({ error: 'access_denied', error_description: result.error })
        : new URLSearchParams({
            access_token: result.access_token,
            refresh_token: result.refresh_token,
            expires_in: String(result.expires_in),
            expires_at: String(result.expires_at),
            token_type: result.token_type,
          });
    redirect(res, 302, `${this.config.publicUrl}/#${fragment.toString()}`);
  }
}
