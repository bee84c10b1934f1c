export default function RuleDesignerListPage() {
  return <h1>Rule Designer</h1>;
}
