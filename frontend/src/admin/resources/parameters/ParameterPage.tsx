export default function ParameterPage() {
  return <h1>Parameter Management</h1>;
}
