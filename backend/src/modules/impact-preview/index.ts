// What the app uses from the impact preview: its module, which provides the rules module's PublishImpactCheck.
export { ImpactPreviewModule } from './impact-preview.module';
