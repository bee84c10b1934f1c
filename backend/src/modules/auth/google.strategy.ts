import { Inject, Injectable } from '@nestjs/common';
import { PassportStrategy } from '@nestjs/passport';
import { Profile, Strategy, type StrategyOptions, VerifyCallback } from 'passport-google-oauth20';
import { APP_CONFIG, type AppConfig } from '../../config/app-config';
import { AuthService } from './auth.service';
import { CookieStateStore } from './oauth-state.store';

/** Registered only when GOOGLE_CLIENT_ID is configured (see AuthModule). */
@Injectable()
export class GoogleStrategy extends PassportStrategy(Strategy, 'google') {
  constructor(
    @Inject(APP_CONFIG) config: AppConfig,
    private readonly auth: AuthService,
  ) {
    const g = config.google!;
    super({
      clientID: g.clientId,
      clientSecret: g.clientSecret,
      callbackURL: `${config.publicUrl}/api/auth/google/callback`,
      scope: ['openid', 'email', 'profile'],
      store: new CookieStateStore(config.publicUrl.startsWith('https:')),
      ...(g.authorizationURL ? { authorizationURL: g.authorizationURL } : {}),
      ...(g.tokenURL ? { tokenURL: g.tokenURL } : {}),
      ...(g.userProfileURL ? { userProfileURL: g.userProfileURL } : {}),
    } as unknown as StrategyOptions);
  }

  async validate(_access: string, _refresh: string, profile: Profile, done: VerifyCallback) {
    const email = profile.emails?.[0];
    if (!email?.value) return done(null, false, { message: 'The Google account has no email address' });
    try {
      const session = await this.auth.signInWithGoogle({
        sub: profile.id,
        email: email.value,
        emailVerified:
          (email as { verified?: boolean | string }).verified === true || (email as { verified?: unknown }).verified === 'true',
        firstName: profile.name?.givenName,
        lastName: profile.name?.familyName,
      });
      done(null, session);
    } catch (e) {
      done(null, false, { message: e instanceof Error ? e.message : 'Google sign-in failed' });
    }
  }
}
