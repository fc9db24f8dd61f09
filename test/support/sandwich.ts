// A FeatureIDE model like its Sandwich example: each ingredient with attributes that have units,
// one of them configurable, so its conversion to UVL reports 24 losses of 3 kinds (issue 37's long
// loss report). Shared by the staging and the browser tests of the grouped report.
export const SANDWICH_PARTS = ['Bread', 'Cheese', 'Ham', 'Salami', 'Lettuce', 'Tomato', 'Mustard', 'Mayo'];

export const SANDWICH = `<?xml version="1.0" encoding="UTF-8"?>
<extendedFeatureModel>
  <struct>
    <and abstract="true" mandatory="true" name="Sandwich">
${SANDWICH_PARTS.map((n) => `      <feature name="${n}">
        <attribute name="Calories" type="long" unit="kcal" value="120" configurable="true"/>
        <attribute name="Price" type="double" unit="EUR" value="0.5"/>
      </feature>`).join('\n')}
    </and>
  </struct>
</extendedFeatureModel>
`;
