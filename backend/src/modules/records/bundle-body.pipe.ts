import { Injectable, type PipeTransform } from '@nestjs/common';
import { validationFailed, type FieldError } from '../../common/errors';
import { readBundle, type BundleBody } from './bundle-entries';

/**
 * The body of `POST /api/fhir`: a Bundle of a type the store takes, with at most its limit of entries
 * (400 validation_failed naming the field). Each entry's resource is FHIR-validated by the service,
 * since a batch stores what is valid and answers the rest entry by entry.
 */
@Injectable()
export class BundleBodyPipe implements PipeTransform<unknown, BundleBody> {
  transform(body: unknown): BundleBody {
    try {
      return readBundle(body);
    } catch (problems) {
      throw validationFailed(problems as FieldError[]);
    }
  }
}
