import { Injectable, PipeTransform } from '@nestjs/common';
import { notFound } from './errors';
import { UUID } from './pagination';

/** A path id that is not a UUID cannot name anything: 404, not 400 or a database error. */
@Injectable()
export class ParseIdPipe implements PipeTransform<string, string> {
  transform(value: string): string {
    if (!UUID.test(value)) throw notFound();
    return value.toLowerCase();
  }
}
