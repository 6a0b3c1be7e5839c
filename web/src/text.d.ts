// Stylesheets imported as text (`with { type: "text" }`), for elements that carry a library's CSS in their shadow root.
declare module "*.css" {
  const text: string;
  export default text;
}
