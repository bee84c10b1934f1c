import { ParameterChange } from './parameter-change.entity';
import { Parameter } from './parameter.entity';

export const PARAMETER_ENTITIES = [Parameter, ParameterChange];
