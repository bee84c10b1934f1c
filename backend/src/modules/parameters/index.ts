// What other modules may use from the parameters module.
export { toEngineParameter, toParameterJson, ParametersService } from './parameters.service';
export { ParametersModule } from './parameters.module';
export { allParameters, loincCodesOf, parametersByIds, realParameters } from './parameters.repository';
export { ensurePackParameters, type PackParameter } from './pack-parameters';
