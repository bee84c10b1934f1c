import {
  ArrayMaxSize,
  ArrayMinSize,
  IsArray,
  IsBoolean,
  IsIn,
  IsObject,
  IsOptional,
  IsString,
  IsUrl,
  Matches,
  MaxLength,
  MinLength,
} from 'class-validator';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { CDS_SERVICE_IDS } from '@cds/contracts';

export class CdsClientDto {
  @ApiProperty({ description: 'The iss of the client JWTs', example: 'https://ehr.example.org' })
  @IsString({ message: 'issuer must be text (the iss of the client JWTs)' })
  @MinLength(1, { message: 'issuer is required' })
  @Matches(/\S/, { message: 'issuer is required' })
  @MaxLength(500, { message: 'issuer must be at most 500 characters' })
  issuer!: string;

  @ApiProperty({ example: 'Example EHR' })
  @IsString({ message: 'name must be text' })
  @MinLength(1, { message: 'name is required' })
  @Matches(/\S/, { message: 'name is required' })
  @MaxLength(200, { message: 'name must be at most 200 characters' })
  name!: string;

  @ApiPropertyOptional({
    description: 'Where the client publishes its public keys; give this or jwk',
    example: 'https://ehr.example.org/.well-known/jwks.json',
  })
  @IsOptional()
  @IsUrl({ protocols: ['https', 'http'], require_tld: false, require_protocol: true }, { message: 'jwks_url must be an http(s) URL' })
  @MaxLength(2000, { message: 'jwks_url must be at most 2000 characters' })
  jwks_url?: string | null;

  @ApiPropertyOptional({
    description: "One public EC or RSA key; give this or jwks_url. Without alg, an EC key uses its curve's algorithm; an RSA key needs alg",
    example: {
      kty: 'EC',
      crv: 'P-256',
      x: 'IZqlKnucW0MjPJzhXRnRglgLdAHQDZWL21XYEwI5_hw',
      y: '8D0vYpluROCb4uWye87YMOozX-jUf6Dh3MZaQur-XNk',
    },
  })
  @IsOptional()
  @IsObject({ message: 'jwk must be a public JSON Web Key' })
  jwk?: Record<string, unknown> | null;

  @ApiProperty({ enum: CDS_SERVICE_IDS, isArray: true, example: ['patient-view'] })
  @IsArray({ message: 'allowed_services must be a list of service ids' })
  @ArrayMinSize(1, { message: 'allowed_services must name at least one service: a client allowed none could call nothing' })
  @ArrayMaxSize(20)
  @IsIn(CDS_SERVICE_IDS, { each: true, message: `allowed_services may hold only ${CDS_SERVICE_IDS.join(', ')}` })
  allowed_services!: string[];

  @ApiPropertyOptional({ description: 'FHIR base URLs the client may name as fhirServer', example: ['https://fhir.ehr.example.org/r4'] })
  @IsOptional()
  @IsArray({ message: 'allowed_fhir_servers must be a list of FHIR base URLs' })
  @ArrayMaxSize(20)
  @IsUrl(
    { protocols: ['https', 'http'], require_tld: false, require_protocol: true },
    { each: true, message: 'allowed_fhir_servers may hold only http(s) FHIR base URLs' },
  )
  @MaxLength(2000, { each: true, message: 'a FHIR base URL must be at most 2000 characters' })
  allowed_fhir_servers?: string[];

  @ApiPropertyOptional({ default: true })
  @IsOptional()
  @IsBoolean({ message: 'is_active must be true or false' })
  is_active?: boolean;
}
