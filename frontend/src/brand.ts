export const TAGLINE = 'Intelligent diabetes management system powered by AI-driven diagnostic rules';
export const PRODUCT_NAME = 'DiabetesCDS';
